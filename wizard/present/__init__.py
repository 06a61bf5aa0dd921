"""How the design and its sizing read to a customer, in one wording for the command line, the
wizard and the proposal: the names of every choice (labels) and the explanations of terms
(glossary). Numbers with their units and plurals are in ``wizard.base.numbers``, beneath the engine, so
that the engine's own messages read the same way. No Qt, no reportlab: every caller uses it."""
