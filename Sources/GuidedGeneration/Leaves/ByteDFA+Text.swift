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
        text(notStartingWithAnyOf: [prefix])
    }

    /// Any text that starts with none of `prefixes` (non-empty, ASCII): the
    /// automaton dies exactly when one of them is complete.
    package static func text(notStartingWithAnyOf prefixes: [[UInt8]]) -> ByteDFA {
        precondition(
            !prefixes.isEmpty && prefixes.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 < 0x80 } }, "the prefixes are non-empty ASCII markers")
        do {
            var nfa = ByteNFA(stateLimit: maximumNFAStateCount, subject: "text")
            nfa.accept = try nfa.addState()
            let body = try nfa.addState()
            try nfa.addRawScalars(ScalarSet.all, from: body, to: body)
            nfa.addEpsilon(body, nfa.accept)
            // One state per trie node of the prefixes: the text so far is a
            // proper prefix of a marker. A node that completes a marker has
            // no state: the text dies there.
            let root = try nfa.addState()
            var pending: [(state: Int32, depth: Int, candidates: [[UInt8]])] = [(root, 0, prefixes)]
            while let (state, depth, candidates) = pending.popLast() {
                nfa.addEpsilon(state, nfa.accept)
                var children: [UInt8: [[UInt8]]] = [:]
                for candidate in candidates { children[candidate[depth], default: []].append(candidate) }
                var others = ScalarSet.all
                for byte in children.keys { others = others.subtracting(ScalarSet([UInt32(byte)...UInt32(byte)])) }
                try nfa.addRawScalars(others, from: state, to: body)
                for (byte, group) in children where !group.contains(where: { $0.count == depth + 1 }) {
                    let child = try nfa.addState()
                    nfa.addEdge(state, byte...byte, child)
                    pending.append((child, depth + 1, group))
                }
            }
            return try build(nfa, from: root)
        } catch {
            preconditionFailure("the automaton for text cannot be built: \(error)")
        }
    }
}
