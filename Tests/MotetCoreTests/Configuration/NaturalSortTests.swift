import MotetConfiguration
import Testing

@Suite struct NaturalSortTests {
    @Test func numbersCompareByValue() {
        #expect(NaturalSort.less("2", "10"))
        #expect(!NaturalSort.less("10", "2"))
        #expect(NaturalSort.less("track 2.ogg", "track 10.ogg"))
        #expect(NaturalSort.less("disc1/track9.ogg", "disc1/track10.ogg"))
        #expect(NaturalSort.less("a99b", "a100a"))
        #expect(NaturalSort.less("99999999999999999999999", "100000000000000000000000"), "longer than Int64 still works")
    }

    @Test func sortsAListTheWayPeopleExpect() {
        let names = ["10 - Ten.ogg", "1 - One.ogg", "Bonus.ogg", "2 - Two.ogg", "alpha.ogg", "01 - Zero One.ogg", "track.ogg", "Track 3.ogg"]
        #expect(names.sorted(by: NaturalSort.less) == [
            "1 - One.ogg", "01 - Zero One.ogg", "2 - Two.ogg", "10 - Ten.ogg", "alpha.ogg", "Bonus.ogg", "Track 3.ogg", "track.ogg",
        ])
    }

    @Test func isATotalOrder() {
        // Different strings never compare equal, so sorting is deterministic.
        let pairs = [("a", "A"), ("1", "01"), ("x01y", "x1y"), ("ab", "aB"), ("", "a")]
        for (a, b) in pairs {
            #expect(NaturalSort.less(a, b) != NaturalSort.less(b, a), "\(a) vs \(b)")
            #expect(!NaturalSort.less(a, a))
        }
    }

    @Test func nonASCIIAndOddBytesDoNotCrash() {
        let names = ["é10", "é9", "\u{0}1", "日本2", "日本10", "", "🎵"]
        let sorted = names.sorted(by: NaturalSort.less)
        #expect(sorted.count == names.count)
        #expect(sorted.firstIndex(of: "é9")! < sorted.firstIndex(of: "é10")!)
        #expect(sorted.firstIndex(of: "日本2")! < sorted.firstIndex(of: "日本10")!)
    }
}
