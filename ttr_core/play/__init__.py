"""Playing a game: the simulator, the functional API, legal-action listings and the Game session."""
