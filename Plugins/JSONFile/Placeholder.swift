// Placeholder until the JSONFile delegate lands.
