extension ByteNFA {
    /// Paths from `from` to `to` for one scalar of `set`, as raw UTF-8 (no
    /// JSON escaping: for plain text).
    mutating func addRawScalars(_ set: ScalarSet, from: Int32, to: Int32) throws(GuidedGenerationError) {
        for range in set.ranges {
            for sequence in UTF8Ranges.sequences(for: range) {
                try addSequence(sequence, from: from, to: to)
            }
        }
    }
}

extension ByteDFA {
    /// Any text — valid UTF-8, any length, ended by the end-of-generation
    /// token — that does not start with `prefix` (ASCII).
    ///
    /// Exists for a turn that may either answer in prose or call tools: the
    /// tool-call block starts with a marker, and prose that spelled the whole
    /// marker would be indistinguishable from a call, so the prose automaton
    /// dies exactly when the marker is complete. Every state but those
    /// inside a multi-byte character accepts; none is final.
    package static func text(notStartingWith prefix: [UInt8]) -> ByteDFA {
        precondition(!prefix.isEmpty && prefix.allSatisfy { $0 < 0x80 }, "the prefix is a non-empty ASCII marker")
        do {
            var nfa = ByteNFA(stateLimit: maximumNFAStateCount, subject: "text")
            nfa.accept = try nfa.addState()
            let body = try nfa.addState()
            try nfa.addRawScalars(ScalarSet.all, from: body, to: body)
            nfa.addEpsilon(body, nfa.accept)
            // One state per prefix byte matched so far.
            var matched: [Int32] = []
            for _ in prefix { matched.append(try nfa.addState()) }
            for (index, state) in matched.enumerated() {
                nfa.addEpsilon(state, nfa.accept)
                let byte = prefix[index]
                let others = ScalarSet.all.subtracting(ScalarSet([UInt32(byte)...UInt32(byte)]))
                try nfa.addRawScalars(others, from: state, to: body)
                if index + 1 < prefix.count {
                    nfa.addEdge(state, byte...byte, matched[index + 1])
                }
            }
            return try build(nfa, from: matched[0])
        } catch {
            preconditionFailure("the automaton for text cannot be built: \(error)")
        }
    }
}
