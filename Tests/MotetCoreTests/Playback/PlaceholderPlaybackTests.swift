import Testing

@Test func placeholderPlayback() { #expect(1 + 1 == 2) }
