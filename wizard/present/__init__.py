"""How the design and its sizing read to a customer, in one wording for the command line, the
wizard and the proposal: the names of every choice (labels), numbers with their units and plurals
(numbers) and the explanations of terms (glossary). No Qt, no reportlab: every caller uses it."""
