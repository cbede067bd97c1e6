import Testing

@Test func placeholderConfiguration() { #expect(1 + 1 == 2) }
