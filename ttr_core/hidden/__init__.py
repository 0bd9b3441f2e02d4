"""Hidden information: checking views, a seat's legal actions, sampled states and tunnel odds."""
