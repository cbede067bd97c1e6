// Placeholder until the player lands.
