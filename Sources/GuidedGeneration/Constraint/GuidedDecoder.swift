/// One guided generation in progress: the output so far, and at each step
/// the tokens the model may choose and the tokens the schema forces.
///
/// Exists as the interface the model's sampling loop drives:
/// ``forcedTokens()`` (append without sampling), ``allowedTokens(into:)``
/// (mask the logits), ``accept(_:)`` (the token chosen). It never lets the
/// output leave the grammar, and every state it reaches can still be
/// completed, so the only way a generation fails is by running out of
/// tokens.
package struct GuidedDecoder {
    package let constraint: TokenConstraint
    // Internal rather than private: the pacing of free strings
    // (StringPacing.swift) reads the state and explores from it.
    var matcher: Matcher
    var state: [Alternative]
    /// Arena records up to here belong to ``state``; later ones are scratch.
    var committed: Int
    private var scratch: [Alternative] = []
    private var exitScratch: [Alternative] = []
    private var acceptScratch: [Alternative] = []
    private var exitLevels: [Range<Int>] = []
    private var leafScratch = TokenMask(count: 0)
    /// The bytes accepted so far.
    package private(set) var output: [UInt8] = []
    /// True once an end-of-generation token was accepted.
    package private(set) var ended = false
    /// Tokens accepted so far (forced ones included).
    package private(set) var acceptedTokens = 0
    /// Where the free string being generated started: the offset of its
    /// first content byte in ``output`` and the number of the token that
    /// opened it (see ``pace(room:pacing:)``). Nil outside free strings.
    var openString: (byte: Int, token: Int)?
    /// The list the open free string is an element of (the arena index of
    /// the frame below the list's, stable while the list is open), and the
    /// contents of the free-string elements each list has so far: a list of
    /// free strings that repeats an element is looping
    /// (``forbidRepeatedElement(in:)``).
    var openList: Int32?
    var listElements: [Int32: [ArraySlice<UInt8>]] = [:]
    /// The open string's shortest completion and its length in the model's
    /// tokens (``pace(room:pacing:)``), tokenized once per string.
    var openStringCompletion: (bytes: [UInt8], count: Int)?

    init(constraint: TokenConstraint) {
        self.constraint = constraint
        var matcher = Matcher(grammar: constraint.grammar)
        self.state = matcher.initialState()
        self.committed = matcher.arena.count
        self.matcher = matcher
    }

    var vocabulary: TokenVocabulary { constraint.vocabulary }

    /// How many readings of the output so far are open (branches of an
    /// anyOf that agree so far, a key that may be declared or extra): a
    /// mask costs a walk of the vocabulary for each reading that is not
    /// inside a string.
    package var readings: Int { state.count }

    /// Nothing more may be generated: the value is complete.
    package var isComplete: Bool { ended || matcher.isDone(state) }

    /// The output so far is a complete value (more may still be allowed,
    /// as after the digits of a number at the top level).
    package var canEnd: Bool { matcher.canEnd(state) }

    // MARK: - Allowed tokens

    /// Sets `mask` to the tokens allowed next (end-of-generation tokens
    /// included where the value may end here).
    package mutating func allowedTokens(into mask: inout TokenMask) {
        defer { matcher.truncate(to: committed) }
        if mask.count != vocabulary.count { mask = TokenMask(count: vocabulary.count) }
        if state.count == 1, state[0].leaf >= 0, matcher.grammar.leafIsClosed(state[0].leaf) {
            allowedInLeaf(state[0], into: &mask)
        } else {
            // Several readings (branches of an anyOf that agree so far, a
            // key that may be declared or extra): the tokens any one of
            // them allows. A reading inside a string takes the string's
            // masks (computed on its state's first visit, then kept); only
            // the others walk the vocabulary.
            mask.removeAll()
            scratch.removeAll(keepingCapacity: true)
            var one = TokenMask(count: 0)
            swap(&one, &leafScratch)
            if one.count != vocabulary.count { one = TokenMask(count: vocabulary.count) }
            for alternative in state {
                if alternative.leaf >= 0, matcher.grammar.leafIsClosed(alternative.leaf) {
                    allowedInLeaf(alternative, into: &one)
                    mask.formUnion(one)
                } else {
                    scratch.append(alternative)
                }
            }
            swap(&one, &leafScratch)
            if !scratch.isEmpty {
                explore(from: TokenTrie.root, level: 0..<scratch.count, depth: 0, into: &mask)
            }
        }
        if canEnd {
            for token in vocabulary.endOfGeneration { mask.insert(token) }
        }
    }

    /// The allowed tokens, as a new mask.
    package mutating func allowedTokens() -> TokenMask {
        var mask = TokenMask(count: vocabulary.count)
        allowedTokens(into: &mask)
        return mask
    }

    private mutating func allowedInLeaf(_ alternative: Alternative, into mask: inout TokenMask) {
        if isElement(alternative) {
            allowedInElement(alternative, into: &mask)
            return
        }
        if case .counted(let string) = matcher.grammar.leaves[Int(alternative.leaf)] {
            allowedInCountedString(alternative, string, into: &mask)
            return
        }
        let masks = constraint.masks(leaf: alternative.leaf, state: alternative.leafState)
        mask.assign(masks.always)
        addExits(masks, after: alternative, remaining: Int.max, into: &mask)
    }

    /// Whether `alternative` is writing an element of an array whose
    /// elements must differ (its top frame keeps the element's text).
    @inline(__always)
    func isElement(_ alternative: Alternative) -> Bool {
        matcher.grammar.hasUniqueArrays && alternative.top >= 0 && matcher.arena[Int(alternative.top)].frame.kind == .element
    }

    /// An element of an array whose elements must differ: the leaf's masks,
    /// with every token that could end the element as one the array has,
    /// or lead to where it could only end so, judged by the matcher token
    /// by token. Those are the tokens that close the leaf (the exits, and
    /// the tokens of ``LeafMasks/always`` that end at its closing byte), and
    /// the tokens whose text stays on the texts of the array's elements;
    /// a token that leaves them can only end the element as a new value.
    private mutating func allowedInElement(_ alternative: Alternative, into mask: inout TokenMask) {
        let grammar = matcher.grammar
        let leaf = alternative.leaf
        let masks = constraint.masks(leaf: leaf, state: alternative.leafState)
        mask.assign(masks.always)
        let tokens = vocabulary.tokens
        for exit in masks.exits where accepts(from: alternative, tokens[Int(exit.token)][...]) {
            mask.insert(exit.token)
        }
        let record = matcher.arena[Int(alternative.top)]
        let set = matcher.arena[Int(record.parent)].frame.elementSet
        let prefixes = matcher.values.prefixes(of: set)
        guard prefixes.contains(record.frame.elementText) else { return }
        let trie = vocabulary.trie
        var stack: [(node: Int32, text: Int32, state: LeafState)] = [(TokenTrie.root, record.frame.elementText, alternative.leafState)]
        var judged: [Int32] = []
        while let (node, text, state) = stack.popLast() {
            for index in trie.children(of: node) {
                let byte = trie.childByte(at: index)
                guard let next = grammar.leafNext(leaf, state, byte),
                    let longer = matcher.values.existingText(text, appending: byte), prefixes.contains(longer)
                else { continue }
                let child = trie.childNode(at: index)
                judged.removeAll(keepingCapacity: true)
                trie.forEachToken(endingAt: child) { judged.append($0) }
                for token in judged where mask.contains(token) && !accepts(from: alternative, tokens[Int(token)][...]) {
                    mask.remove(token)
                }
                // Past the closing byte the tokens are exits, judged above.
                if !grammar.leafIsFinal(leaf, next), trie.hasChildren(child) { stack.append((child, longer, next)) }
            }
        }
    }

    /// A string with a length bound: the masks of its automaton state with
    /// the characters each token writes counted, less the tokens after
    /// which it would need more characters than it may still take, and
    /// less those after which it could not reach its minimum (among them
    /// the tokens that close it too soon).
    private mutating func allowedInCountedString(_ alternative: Alternative, _ string: Grammar.CountedString, into mask: inout TokenMask) {
        let low = alternative.leafState.low
        let count = alternative.leafState.high
        let masks = constraint.countedMasks(leaf: alternative.leaf, string, low: low)
        let remaining = Int(clamping: string.maximum - min(count, string.maximum))
        let needed = string.minimum > count ? Int(clamping: string.minimum - count) : 0
        mask.assign(constraint.countedAlways(masks, leaf: alternative.leaf, string, low: low, remaining: remaining))
        for entry in masks.alwaysByMost {
            guard Int(entry.characters) < needed else { break }
            mask.remove(entry.token)
        }
        addExits(masks, after: alternative, remaining: Int.max, into: &mask) { exit in
            Int(exit.characters) >= needed && Int(exit.characters) <= remaining
        }
    }

    /// Adds the exits of `masks` (tokens that close the leaf of
    /// `alternative` and go on) that the stack below it accepts, among
    /// those `include` keeps; removes from `mask` the tokens longer than
    /// `remaining` first.
    mutating func addExits(
        _ masks: LeafMasks, after alternative: Alternative, remaining: Int, into mask: inout TokenMask,
        where include: (LeafMasks.Exit) -> Bool = { _ in true }
    ) {
        if remaining < Int.max {
            // A token one byte longer fits only by ending in a quote (the
            // closing one, or an escaped one inside the string).
            for entry in vocabulary.tokensByLength {
                guard entry.length > remaining else { break }
                if entry.length == remaining + 1, vocabulary.tokens[Int(entry.token)].last == UInt8(ascii: "\"") { continue }
                mask.remove(entry.token)
            }
        }
        guard !masks.exits.isEmpty else { return }
        let parent = matcher.complete(alternative.top)
        let tokens = vocabulary.tokens
        // The exits come sorted by what follows the leaf, so consecutive
        // ones share beginnings: the readings after the first `d + 1` bytes
        // of the last exit walked are `exitScratch[exitLevels[d]]`, and the
        // next exit steps on from where the two part (`exitScratch` only
        // grows while one first byte's exits are walked). A beginning no
        // reading takes rules out every exit that shares it.
        for byte in 0..<256 {
            let range = Int(masks.exitStart[byte])..<Int(masks.exitStart[byte + 1])
            guard !range.isEmpty else { continue }
            exitScratch.removeAll(keepingCapacity: true)
            matcher.step(parent, UInt8(byte), into: &exitScratch)
            guard !exitScratch.isEmpty else { continue }
            if exitScratch.count > 1 { matcher.deduplicate(&exitScratch, from: 0) }
            setExitLevel(0, 0..<exitScratch.count)
            // The levels past 0 that hold `walked`'s readings.
            var known = 0
            var walked: ArraySlice<UInt8> = []
            for exit in masks.exits[range] where Int(exit.offset) - 1 <= remaining && include(exit) {
                let bytes = tokens[Int(exit.token)][(Int(exit.offset) + 1)...]
                var depth = 0
                while depth < known, depth < bytes.count, walked[walked.startIndex + depth] == bytes[bytes.startIndex + depth] { depth += 1 }
                // It begins the way the last one died.
                if depth == known, exitLevels[known].isEmpty { continue }
                walked = bytes
                while depth < bytes.count, !exitLevels[depth].isEmpty {
                    let next = bytes[bytes.startIndex + depth]
                    let start = exitScratch.count
                    for position in exitLevels[depth] {
                        let reading = exitScratch[position]
                        matcher.step(reading, next, into: &exitScratch)
                    }
                    if exitScratch.count - start > 1 { matcher.deduplicate(&exitScratch, from: start) }
                    depth += 1
                    setExitLevel(depth, start..<exitScratch.count)
                }
                known = depth
                if !exitLevels[depth].isEmpty { mask.insert(exit.token) }
            }
        }
    }

    @inline(__always)
    private mutating func setExitLevel(_ depth: Int, _ readings: Range<Int>) {
        if depth < exitLevels.count { exitLevels[depth] = readings } else { exitLevels.append(readings) }
    }

    /// Depth-first over the trie below `node`, with the alternatives of the
    /// current prefix in `scratch[level]`.
    private mutating func explore(from node: Int32, level: Range<Int>, depth: Int32, into mask: inout TokenMask) {
        let trie = vocabulary.trie
        // The bytes the readings may take next, where known: from the
        // root, most of the vocabulary's first bytes lead nowhere; below
        // it, readings inside an object's keys take only the bytes their
        // key tries go on with, not the token trie's other children (a
        // hundred below a letter).
        var firstBytes: ByteSet? = ByteSet()
        for position in level {
            let reading = scratch[position]
            guard let bytes = node == TokenTrie.root ? self.firstBytes(of: reading) : matcher.keyBytes(of: reading) else {
                firstBytes = nil
                break
            }
            firstBytes?.formUnion(bytes)
        }
        for index in trie.children(of: node) {
            let byte = trie.childByte(at: index)
            if let firstBytes, !firstBytes.contains(byte) { continue }
            let start = scratch.count
            for position in level {
                let alternative = scratch[position]
                matcher.step(alternative, byte, into: &scratch)
            }
            guard scratch.count > start else { continue }
            if scratch.count - start > 1 { matcher.deduplicate(&scratch, from: start) }
            let child = trie.childNode(at: index)
            trie.forEachToken(endingAt: child) { mask.insert($0) }
            if trie.hasChildren(child) {
                // A reading that has just entered a string (`"`, `,"`) takes
                // the string's masks (computed once) for the rest of the tokens
                // below this node; only the others walk on.
                if depth < Self.subtreeDepth {
                    var position = start
                    while position < scratch.count {
                        let alternative = scratch[position]
                        guard alternative.leaf >= 0, case .string = matcher.grammar.leaves[Int(alternative.leaf)], !isElement(alternative) else {
                            position += 1
                            continue
                        }
                        let masks = constraint.subtreeMasks(leaf: alternative.leaf, state: alternative.leafState, node: child)
                        mask.formUnion(masks.always)
                        addExits(masks, after: alternative, remaining: Int.max, into: &mask)
                        scratch.remove(at: position)
                    }
                }
                if scratch.count > start {
                    explore(from: child, level: start..<scratch.count, depth: depth + 1, into: &mask)
                }
            }
            scratch.removeSubrange(start...)
        }
    }

    /// The bytes `reading` may take next; nil where they depend on more
    /// than its leaf and top frame. Without arrays whose elements must
    /// differ (whose frames hold this generation's texts), whether a step
    /// leads anywhere depends on the frames below the top only where a
    /// number ends a sequence's last part, so a reading's bytes are worked
    /// out once (stepping it with every byte) and kept in the constraint
    /// for every generation.
    private mutating func firstBytes(of reading: Alternative) -> ByteSet? {
        guard !matcher.grammar.hasUniqueArrays, reading.top >= 0 else { return nil }
        let frame = matcher.arena[Int(reading.top)].frame
        if reading.leaf >= 0, frame.kind == .sequence { return nil }
        let key = TokenConstraint.ReadingKey(leaf: reading.leaf, leafState: reading.leafState, frame: frame)
        if let known = constraint.firstBytes.withLock({ $0[key] }) { return known }
        var bytes = ByteSet()
        var reached: [Alternative] = []
        for byte in UInt8.min...UInt8.max {
            reached.removeAll(keepingCapacity: true)
            matcher.step(reading, byte, into: &reached)
            if !reached.isEmpty { bytes.insert(byte) }
        }
        constraint.firstBytes.withLock { kept in
            if kept.count < TokenConstraint.firstByteCapacity { kept[key] = bytes }
        }
        return bytes
    }

    /// The trie depth down to which readings inside a string use
    /// ``TokenConstraint/subtreeMasks(leaf:state:node:)``.
    private static let subtreeDepth: Int32 = 2

    /// Whether `bytes` can follow from `alternative`.
    private mutating func accepts(from alternative: Alternative, _ bytes: ArraySlice<UInt8>) -> Bool {
        // The readings after each byte go to the end of `acceptScratch`,
        // and the ones before them are dropped once stepped: no array per
        // byte (an element's exits are thousands of tokens at each step).
        acceptScratch.removeAll(keepingCapacity: true)
        acceptScratch.append(alternative)
        for byte in bytes {
            let end = acceptScratch.count
            for position in 0..<end {
                let reading = acceptScratch[position]
                matcher.step(reading, byte, into: &acceptScratch)
            }
            guard acceptScratch.count > end else { return false }
            if acceptScratch.count - end > 1 { matcher.deduplicate(&acceptScratch, from: end) }
            acceptScratch.removeSubrange(0..<end)
        }
        return true
    }

    // MARK: - Forced tokens

    /// The bytes the grammar forces next (keys, punctuation, the rest of
    /// the only matching choice), up to the first point with a choice.
    package mutating func forcedBytes(limit: Int = 1024) -> [UInt8] {
        defer { matcher.truncate(to: committed) }
        var current = state
        var bytes: [UInt8] = []
        while bytes.count < limit, !matcher.canEnd(current) {
            var only: UInt8?
            var several = false
            for byte in UInt8.min...UInt8.max {
                scratch.removeAll(keepingCapacity: true)
                for alternative in current { matcher.step(alternative, byte, into: &scratch) }
                guard !scratch.isEmpty else { continue }
                if only != nil {
                    several = true
                    break
                }
                only = byte
            }
            guard !several, let byte = only else { break }
            bytes.append(byte)
            current = matcher.advance(current, byte)
        }
        return bytes
    }

    /// Tokens to append without sampling: the forced bytes, tokenized the
    /// way the model tokenizes them, cut before the first token boundary
    /// where a longer vocabulary token could run on past the forced text
    /// (the model would have written that token, so forcing the shorter
    /// ones would push it off its own tokenization). Empty when nothing is
    /// forced or the model should choose how to spell it.
    package mutating func forcedTokens() -> [Int32] {
        var bytes = forcedBytes()
        bytes.removeLast(UTF8Boundary.incompleteSuffixLength(of: bytes))
        guard !bytes.isEmpty, let tokens = vocabulary.tokenize(bytes) else { return [] }
        var spelled: [UInt8] = []
        for token in tokens {
            // Only tokens that spell text: an empty (control) or
            // end-of-generation token would not be accepted as text.
            guard vocabulary.spellsText(token) else { return [] }
            spelled += vocabulary.tokens[Int(token)]
        }
        guard spelled == bytes else { return [] }
        // Forced text that ends the whole value cannot be run past.
        var after = state
        defer { matcher.truncate(to: committed) }
        for byte in bytes { after = matcher.advance(after, byte) }
        if matcher.isDone(after) { return tokens }
        let trie = vocabulary.trie
        var boundary = 0
        var kept = 0
        for token in tokens {
            if let node = trie.walk(bytes[boundary...]), runsOn(from: node, after: after) { break }
            boundary += vocabulary.tokens[Int(token)].count
            kept += 1
        }
        return Array(tokens[..<kept])
    }

    /// Whether a token longer than trie `node`'s prefix could continue past
    /// it into what the grammar allows from `state`: some child's byte is
    /// valid there. (A longer token whose next byte the grammar refuses
    /// could never be written, so it does not make the boundary unsafe.)
    private mutating func runsOn(from node: Int32, after state: [Alternative]) -> Bool {
        let trie = vocabulary.trie
        for index in trie.children(of: node) {
            let byte = trie.childByte(at: index)
            scratch.removeAll(keepingCapacity: true)
            for alternative in state { matcher.step(alternative, byte, into: &scratch) }
            if !scratch.isEmpty { return true }
        }
        return false
    }

    // MARK: - Budget

    /// The fewest bytes that complete the value from here (an upper bound
    /// on the tokens needed, since every token spells at least one byte).
    package mutating func completionLength() -> Int? {
        defer { matcher.truncate(to: committed) }
        return matcher.shortestCompletion(of: state, table: constraint.completions)?.count
    }

    /// Accepts `token` only if the value can still be completed within
    /// `budget` tokens after it — the tokens ``completionTokens()`` would
    /// then use. Returns false, changing nothing, otherwise (or if the
    /// grammar does not allow it).
    package mutating func accept(_ token: Int32, completableWithin budget: Int) -> Bool {
        let saved = Snapshot(self)
        guard accept(token) else { return false }
        if ended { return true }
        let needed = matcher.shortestCompletion(of: state, table: constraint.completions)
        matcher.truncate(to: committed)
        if let needed {
            // Every token spells at least one byte: most steps are decided
            // by the byte count alone, without tokenizing.
            if needed.count <= budget { return true }
            if let tokens = tokens(spelling: needed), tokens.count <= budget { return true }
        }
        saved.restore(into: &self)
        matcher.truncate(to: committed)
        return false
    }

    /// The fewest tokens that finish the value from here, by the measure
    /// the decode loop holds a budget to: the tokens the schema forces now,
    /// then the shortest completion after them as the model tokenizes it
    /// (``completionTokens()``). The loop's first token is held to the same
    /// count, so a caller can refuse a budget below it before evaluating
    /// the prompt (rarely, tokens the model picks could have spelled the
    /// rest in fewer: the refusal is the loop's measure, not a proof). Nil
    /// if no completion can be spelled.
    package func tokensToFinish() -> Int? {
        var probe = self
        let forced = probe.forcedTokens()
        for token in forced where !probe.accept(token) { return nil }
        if probe.isComplete { return forced.count }
        guard let rest = probe.completionTokens() else { return nil }
        return forced.count + rest.count
    }

    /// The tokens of the shortest completion from here, tokenized the way
    /// the model would (falling back to one token per byte). Nil if it
    /// cannot be spelled with this vocabulary.
    package mutating func completionTokens() -> [Int32]? {
        defer { matcher.truncate(to: committed) }
        guard let bytes = matcher.shortestCompletion(of: state, table: constraint.completions) else { return nil }
        return tokens(spelling: bytes)
    }

    /// `bytes` as the model tokenizes them, or one token per byte where
    /// that does not spell them exactly; nil if some byte has no token.
    func tokens(spelling bytes: [UInt8]) -> [Int32]? {
        if bytes.isEmpty { return [] }
        if UTF8Boundary.incompleteSuffixLength(of: bytes) == 0, bytes.first.map({ $0 & 0xC0 != 0x80 }) ?? false,
            let tokens = vocabulary.tokenize(bytes),
            tokens.allSatisfy(vocabulary.spellsText),
            tokens.flatMap({ vocabulary.tokens[Int($0)] }) == bytes
        {
            return tokens
        }
        var tokens: [Int32] = []
        for byte in bytes {
            guard let node = vocabulary.trie.child(of: TokenTrie.root, byte: byte) else { return nil }
            var single: Int32?
            vocabulary.trie.forEachToken(endingAt: node) { single = single ?? $0 }
            guard let token = single else { return nil }
            tokens.append(token)
        }
        return tokens
    }

    // MARK: - Accepting

    /// Appends `token` to the output. Returns false, changing nothing, if
    /// the grammar does not allow it here.
    @discardableResult
    package mutating func accept(_ token: Int32) -> Bool {
        if vocabulary.endOfGeneration.contains(token) {
            guard canEnd, !ended else { return false }
            ended = true
            return true
        }
        guard token >= 0, Int(token) < vocabulary.count else { return false }
        return accept(bytes: vocabulary.tokens[Int(token)])
    }

    /// Whether `state` is inside a free string (no pattern, no choices).
    func isInFreeString(_ state: [Alternative]) -> Bool {
        state.count == 1 && state[0].leaf == SharedLeaf.anyString.rawValue
    }

    /// Appends `bytes` to the output. Returns false, changing nothing, if
    /// the grammar does not allow them here.
    @discardableResult
    package mutating func accept(bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, !ended else { return false }
        var current = state
        var opened = openString
        var list = openList
        var closed: [(list: Int32, range: Range<Int>)] = []
        for (index, byte) in bytes.enumerated() {
            let wasInString = isInFreeString(current)
            current = matcher.advance(current, byte)
            if current.isEmpty {
                matcher.truncate(to: committed)
                return false
            }
            if !isInFreeString(current) {
                if let start = opened, let owner = list { closed.append((owner, start.byte..<(output.count + index))) }
                opened = nil
                list = nil
            } else if !wasInString {
                opened = (byte: output.count + index + 1, token: acceptedTokens)
                list = listOwner(of: current[0])
            }
        }
        state = current
        committed = matcher.arena.count
        output += bytes
        openString = opened
        openList = list
        for element in closed { listElements[element.list, default: []].append(output[element.range]) }
        acceptedTokens += 1
        return true
    }
}

/// Where UTF-8 text may be cut.
enum UTF8Boundary {
    /// The number of bytes at the end of `bytes` that start a character
    /// without finishing it.
    static func incompleteSuffixLength(of bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        var continuation = 0
        while index >= 0, bytes[index] & 0xC0 == 0x80, continuation < 3 {
            continuation += 1
            index -= 1
        }
        guard index >= 0 else { return 0 }
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > continuation + 1 ? continuation + 1 : 0
    }
}

extension GuidedDecoder {
    /// What ``accept(_:completableWithin:)`` puts back when it takes a
    /// token back (the matcher's arena only grew; its records past
    /// `committed` are dropped).
    struct Snapshot {
        var state: [Alternative]
        var committed: Int
        var output: [UInt8]
        var ended: Bool
        var openString: (byte: Int, token: Int)?
        var acceptedTokens: Int
        var openList: Int32?
        var listElements: [Int32: [ArraySlice<UInt8>]]

        init(_ decoder: GuidedDecoder) {
            state = decoder.state
            committed = decoder.committed
            output = decoder.output
            ended = decoder.ended
            openString = decoder.openString
            acceptedTokens = decoder.acceptedTokens
            openList = decoder.openList
            listElements = decoder.listElements
        }

        func restore(into decoder: inout GuidedDecoder) {
            decoder.state = state
            decoder.committed = committed
            decoder.output = output
            decoder.ended = ended
            decoder.openString = openString
            decoder.acceptedTokens = acceptedTokens
            decoder.openList = openList
            decoder.listElements = listElements
        }
    }

    /// An element as a repeat is recognized: letters in lower case, without
    /// the sentence punctuation pacing may end it with (`Jazz`, `jazz.`).
    static func elementKey(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var key = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        while let last = key.last, [UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: " ")].contains(last) { key.removeLast() }
        return key
    }

    /// The list a string being generated on top of `alternative` is an
    /// element of, or nil when it is not a list element.
    func listOwner(of alternative: Alternative) -> Int32? {
        guard alternative.top >= 0 else { return nil }
        let record = matcher.arena[Int(alternative.top)]
        return record.frame.kind == .array ? record.parent : nil
    }

    /// Removes from `mask` the tokens that would close the open free string
    /// as a copy of an element its list already has. A list of free strings
    /// that writes an element again (`["hip hop", "hip hop", "hip hop"]`) is
    /// a loop, like a passage written again and again inside a string
    /// (``RepetitionStop``): the model goes on with the element instead, or
    /// ends it elsewhere. Case and closing punctuation do not make a copy
    /// new (``elementKey(_:)``). Returns whether any token was removed.
    @discardableResult
    package mutating func forbidRepeatedElement(in mask: inout TokenMask) -> Bool {
        guard let start = openString, let list = openList, let siblings = listElements[list], isInFreeString(state) else { return false }
        let content = Self.elementKey(output[start.byte...])
        let candidates = siblings.map { Self.elementKey($0) }.filter { $0.count >= content.count && $0.starts(with: content) }
        guard !candidates.isEmpty else { return false }
        let masks = constraint.masks(leaf: state[0].leaf, state: state[0].leafState)
        let tokens = vocabulary.tokens
        let open = output[start.byte...]
        func repeats(_ written: ArraySlice<UInt8>) -> Bool {
            let element = Self.elementKey(open + written)
            return candidates.contains { $0 == element }
        }
        var removed = false
        for token in masks.closers where mask.contains(token) && repeats(tokens[Int(token)].dropLast()) {
            mask.remove(token)
            removed = true
        }
        for exit in masks.exits where mask.contains(exit.token) && repeats(tokens[Int(exit.token)][..<(Int(exit.offset) - 1)]) {
            mask.remove(exit.token)
            removed = true
        }
        return removed
    }
}
