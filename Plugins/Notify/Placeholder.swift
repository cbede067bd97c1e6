// Placeholder until the Notify delegate lands.
