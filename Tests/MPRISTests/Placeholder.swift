import Testing

@Test func placeholderMPRIS() { #expect(1 + 1 == 2) }
