// Placeholder until the option table lands.
