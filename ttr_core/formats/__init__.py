"""Input and output: JSON forms, end-of-game positions and SVG maps."""
