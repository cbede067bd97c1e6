// Placeholder until the MPRIS delegate lands.
