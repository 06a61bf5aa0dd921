"""The customer's own measurements: benchmark files read into points (parsers), and the engine's
stated efficiency factors fitted to them (fit), so a design rests on what was measured."""
