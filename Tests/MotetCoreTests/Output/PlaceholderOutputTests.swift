import Testing

@Test func placeholderOutput() { #expect(1 + 1 == 2) }
