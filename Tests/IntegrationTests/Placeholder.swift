import Testing

@Test func placeholderIntegration() { #expect(1 + 1 == 2) }
