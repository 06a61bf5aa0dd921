"""The foundation every layer uses and nothing above it: errors that name the field, numbers with
their units and plurals, safe reading of a user's file, the bundled files, the catalog kinds,
and the start-up checks made before any library is imported."""
