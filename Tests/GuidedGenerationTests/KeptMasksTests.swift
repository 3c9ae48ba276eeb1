@testable import GuidedGeneration
import Testing

/// What decoders keep between steps and share through their constraint —
/// the stack's verdicts on the tails of a string's exits, the masks of
/// walks of the structure — never changes a mask: a decoder on a
/// constraint that has kept them, with tokens taken back on a tight budget
/// along the way, allows at every step what a decoder on a fresh
/// constraint allows after the same tokens.
@Suite("Kept masks")
struct KeptMasksTests {
    @Test(arguments: MaskExactnessTests.schemas.indices)
    func keptMasksAreFreshMasks(_ index: Int) throws {
        let (name, root) = MaskExactnessTests.schemas[index]
        let vocabulary = MaskExactnessTests.vocabulary
        let kept = try TokenConstraint(root: root, definitions: [], vocabulary: vocabulary)
        var takenBack = 0
        for seed in 0..<24 {
            var random = SplitMix(state: UInt64(seed) &+ 7_919)
            var decoder = kept.makeDecoder()
            var tokens: [Int32] = []
            for _ in 0..<40 where !decoder.isComplete {
                let mask = decoder.allowedTokens()
                var fresh = try TokenConstraint(root: root, definitions: [], vocabulary: vocabulary).makeDecoder()
                var replayed = true
                for token in tokens where !fresh.accept(token) { replayed = false }
                try #require(replayed)
                let freshMask = fresh.allowedTokens()
                #expect(freshMask.tokens == mask.tokens, "\(name), seed \(seed), after \(String(decoding: decoder.output, as: UTF8.self))")
                let allowed = mask.tokens.filter { !vocabulary.endOfGeneration.contains($0) }
                guard !allowed.isEmpty else { break }
                // A token on a budget too tight for many: the decoder puts
                // the step back, and its next mask must not remember it.
                let tried = allowed[Int(random.next() % UInt64(allowed.count))]
                if decoder.accept(tried, completableWithin: Int(random.next() % 3)) {
                    tokens.append(tried)
                    continue
                }
                takenBack += 1
                let token = allowed[Int(random.next() % UInt64(allowed.count))]
                let accepted = decoder.accept(token)
                #expect(accepted)
                tokens.append(token)
            }
        }
        #expect(takenBack > 0, "\(name): no token was taken back, so the test did not test that")
    }

    /// A tail judged under one string's stack is judged again under the
    /// next string's: `"}]}` cannot follow the string of an object in an
    /// object, and can follow the string of an object in a list.
    @Test func exitVerdictsFollowTheStack() throws {
        let vocabulary = MaskExactnessTests.vocabulary
        let inner = SchemaNode.object(ObjectNode(properties: [PropertyNode(name: "s", node: .string(StringNode()))]))
        let root = SchemaNode.object(ObjectNode(properties: [
            PropertyNode(name: "x", node: inner),
            PropertyNode(name: "y", node: .array(ArrayNode(items: inner))),
        ]))
        let constraint = try TokenConstraint(root: root, definitions: [], vocabulary: vocabulary)
        let closeAll = try #require(vocabulary.tokens.firstIndex(of: Array("\"}]}".utf8)).map(Int32.init))
        var decoder = constraint.makeDecoder()
        var accepted = decoder.accept(bytes: Array("{\"x\":{\"s\":\"ab".utf8))
        #expect(accepted)
        var mask = decoder.allowedTokens()
        #expect(!mask.contains(closeAll))
        accepted = decoder.accept(bytes: Array("\"},\"y\":[{\"s\":\"ab".utf8))
        #expect(accepted)
        mask = decoder.allowedTokens()
        #expect(mask.contains(closeAll))
    }

    /// Walks of the structure are kept by their stacks: a second
    /// generation's first mask is the first's, arrays whose elements must
    /// differ keep none.
    @Test func structureWalksAreKeptByStack() throws {
        let vocabulary = MaskExactnessTests.vocabulary
        let free = MaskExactnessTests.schemas.first { $0.name == "free values" }!.root
        let constraint = try TokenConstraint(root: free, definitions: [], vocabulary: vocabulary)
        var first = constraint.makeDecoder()
        let mask = first.allowedTokens()
        #expect(constraint.keptStructureMasks == 1)
        var second = constraint.makeDecoder()
        let again = second.allowedTokens()
        #expect(again.tokens == mask.tokens)
        #expect(constraint.keptStructureMasks == 1)

        let distinct = MaskExactnessTests.schemas.first { $0.name == "distinct elements" }!.root
        let unique = try TokenConstraint(root: distinct, definitions: [], vocabulary: vocabulary)
        var decoder = unique.makeDecoder()
        _ = decoder.allowedTokens()
        #expect(unique.keptStructureMasks == 0)
    }

    /// The kept masks stay within their byte budget, the oldest leaving
    /// first; short lists are kept as tokens, most of a vocabulary as a
    /// mask.
    @Test func structureMasksStayWithinBudget() {
        let size = 152_000
        var masks = StructureMasks()
        func readings(_ number: Int) -> [StructureMasks.Reading] {
            [StructureMasks.Reading(leaf: -1, leafState: LeafState(), frames: [Frame(.value, node: Int32(number))])]
        }
        var wide = TokenMask(count: size)
        for token in 0..<Int32(size) where token % 3 != 0 { wide.insert(token) }
        var narrow = TokenMask(count: size)
        for token: Int32 in [3, 70, 151_999] { narrow.insert(token) }
        if case .tokens(let tokens) = StructureMasks.Kept(narrow) { #expect(tokens == [3, 70, 151_999]) } else { Issue.record("three tokens kept as a mask") }
        if case .mask = StructureMasks.Kept(wide) {} else { Issue.record("100k tokens kept as a list") }

        for number in 0..<200 {
            masks.keep(StructureMasks.Kept(number % 4 == 0 ? wide : narrow), for: readings(number))
            #expect(masks.bytes <= StructureMasks.byteBudget)
        }
        #expect(masks.mask(for: readings(0)) == nil, "the oldest left first")
        #expect(masks.mask(for: readings(199)) != nil, "the newest is kept")
        var union = TokenMask(count: size)
        masks.mask(for: readings(196))?.add(to: &union)
        #expect(union.tokens == wide.tokens)
    }
}
