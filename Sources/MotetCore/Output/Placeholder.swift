// Placeholder until the sinks land.
