import Testing

@Test func placeholderDelegate() { #expect(1 + 1 == 2) }
