"""The game's data: cards, actions, events, states, map data, errors and the random generator."""
