import Testing

@Test func placeholderPluginHost() { #expect(1 + 1 == 2) }
