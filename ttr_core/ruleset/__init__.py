"""Building a ruleset: finding editions, the hooks they implement, and the compiled
rules of one edition."""
