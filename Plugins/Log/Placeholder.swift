// Placeholder until the Log delegate lands.
