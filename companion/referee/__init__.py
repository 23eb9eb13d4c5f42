"""referee layer: the game session (rules + store + announcements) and the live referee."""
