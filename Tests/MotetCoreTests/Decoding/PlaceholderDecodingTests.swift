import Testing

@Test func placeholderDecoding() { #expect(1 + 1 == 2) }
