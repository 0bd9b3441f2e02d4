"""Ratings of bots from paired games: schedules, Bradley–Terry fits, a sequential test,
stored results (what ``ttr arena`` runs)."""
