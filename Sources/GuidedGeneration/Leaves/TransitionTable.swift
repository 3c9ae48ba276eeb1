/// A deterministic automaton under construction: a flat transition table
/// over byte classes, before or after pruning and minimization.
///
/// Exists so the construction steps (``determinize(_:from:stateLimit:)``,
/// ``pruned()``, ``minimized()``, ``canonical()``) pass one plain value
/// along; ``ByteDFA`` is its final, read-only form.
struct TransitionTable {
    /// The class of each byte; bytes of one class always move alike.
    var classOfByte: [UInt8]
    var classCount: Int
    /// `targets[state * classCount + class]`, or `ByteDFA.dead`.
    var targets: [Int32]
    var accepting: [Bool]
    /// The start state, or `ByteDFA.dead` when nothing is accepted.
    var start: Int32

    var stateCount: Int { accepting.count }

    @inline(__always)
    func target(_ state: Int, _ byteClass: Int) -> Int32 {
        targets[state &* classCount &+ byteClass]
    }

    // MARK: Subset construction

    /// The most NFA states all subsets together may hold (4 MB of them).
    /// Each subset is kept and walked once, so this bounds the
    /// construction's memory and time where the state count does not: a
    /// pattern searched for anywhere (`.{900}` as JSON Schema's `pattern`)
    /// has a few thousand DFA states, each a set of hundreds of positions:
    /// time and memory grow with the square of the count (`.{255}` took
    /// 2.9 s in a debug build).
    static let maximumSubsetEntries = 1_000_000

    /// The deterministic automaton accepting what `nfa` accepts from
    /// `start`; only states reachable from `start` are built. Throws past
    /// `stateLimit` states, or past ``maximumSubsetEntries``.
    static func determinize(_ nfa: ByteNFA, from start: Int32, stateLimit: Int) throws(GuidedGenerationError) -> TransitionTable {
        // Byte classes: bytes no edge boundary separates.
        var boundary = [Bool](repeating: false, count: 257)
        for stateEdges in nfa.edges {
            for edge in stateEdges {
                boundary[Int(edge.low)] = true
                boundary[Int(edge.high) + 1] = true
            }
        }
        var classOfByte = [UInt8](repeating: 0, count: 256)
        var classCount = 0
        for byte in 0..<256 {
            if boundary[byte] && byte > 0 {
                classCount += 1
            }
            classOfByte[byte] = UInt8(truncatingIfNeeded: classCount)
        }
        classCount += 1

        // Only states with byte edges, and the accepting state, tell
        // subsets apart; the rest are passed through by epsilon closure.
        let nfaCount = nfa.stateCount
        var important = [Bool](repeating: false, count: nfaCount)
        for state in 0..<nfaCount where !nfa.edges[state].isEmpty {
            important[state] = true
        }
        important[Int(nfa.accept)] = true

        var stamp = [UInt32](repeating: 0, count: nfaCount)
        var currentStamp: UInt32 = 0
        var stack: [Int32] = []
        // The important states of the epsilon closure of `seeds`, sorted.
        func closure(_ seeds: [Int32]) -> [Int32] {
            currentStamp &+= 1
            var result: [Int32] = []
            stack.removeAll(keepingCapacity: true)
            for seed in seeds where stamp[Int(seed)] != currentStamp {
                stamp[Int(seed)] = currentStamp
                stack.append(seed)
            }
            while let state = stack.popLast() {
                if important[Int(state)] {
                    result.append(state)
                }
                for next in nfa.epsilons[Int(state)] where stamp[Int(next)] != currentStamp {
                    stamp[Int(next)] = currentStamp
                    stack.append(next)
                }
            }
            result.sort()
            return result
        }

        var subsets: [[Int32]] = [closure([start])]
        var ids: [[Int32]: Int32] = [subsets[0]: 0]
        var entries = subsets[0].count
        var targets: [Int32] = []
        var accepting: [Bool] = []
        var buckets = [[Int32]](repeating: [], count: classCount)
        var touched: [Int] = []
        var current = 0
        while current < subsets.count {
            let subset = subsets[current]
            accepting.append(subset.contains(nfa.accept))
            for state in subset {
                for edge in nfa.edges[Int(state)] {
                    for byteClass in Int(classOfByte[Int(edge.low)])...Int(classOfByte[Int(edge.high)]) {
                        if buckets[byteClass].isEmpty {
                            touched.append(byteClass)
                        }
                        buckets[byteClass].append(edge.target)
                    }
                }
            }
            let row = targets.count
            targets.append(contentsOf: repeatElement(ByteDFA.dead, count: classCount))
            for byteClass in touched {
                let next = closure(buckets[byteClass])
                buckets[byteClass].removeAll(keepingCapacity: true)
                if next.isEmpty { continue }
                if let id = ids[next] {
                    targets[row + byteClass] = id
                } else {
                    guard subsets.count < stateLimit else {
                        throw ByteNFA.tooLarge(nfa.subject, limit: stateLimit)
                    }
                    entries += next.count
                    guard entries <= maximumSubsetEntries else {
                        throw .unsupportedGuide("\(nfa.subject) is too large to enforce: its automaton needs more than \(maximumSubsetEntries) state-set entries to build")
                    }
                    let id = Int32(subsets.count)
                    ids[next] = id
                    subsets.append(next)
                    targets[row + byteClass] = id
                }
            }
            touched.removeAll(keepingCapacity: true)
            current += 1
        }
        return TransitionTable(
            classOfByte: classOfByte, classCount: classCount, targets: targets,
            accepting: accepting, start: 0
        )
    }

    // MARK: Pruning

    /// The same language with every state that cannot reach acceptance
    /// removed (edges into them become dead), so that a walk from the start
    /// never enters a dead end. Assumes every state is reachable.
    func pruned() -> TransitionTable {
        let count = stateCount
        // Predecessors, as a compressed adjacency list.
        var predecessorCount = [Int32](repeating: 0, count: count + 1)
        for target in targets where target >= 0 {
            predecessorCount[Int(target) + 1] += 1
        }
        for state in 0..<count {
            predecessorCount[state + 1] += predecessorCount[state]
        }
        var fill = predecessorCount
        var predecessors = [Int32](repeating: 0, count: Int(predecessorCount[count]))
        for state in 0..<count {
            for byteClass in 0..<classCount {
                let target = self.target(state, byteClass)
                if target >= 0 {
                    predecessors[Int(fill[Int(target)])] = Int32(state)
                    fill[Int(target)] += 1
                }
            }
        }
        var live = accepting
        var queue: [Int32] = []
        for state in 0..<count where live[state] {
            queue.append(Int32(state))
        }
        var head = 0
        while head < queue.count {
            let state = Int(queue[head])
            head += 1
            for index in Int(predecessorCount[state])..<Int(predecessorCount[state + 1]) {
                let predecessor = Int(predecessors[index])
                if !live[predecessor] {
                    live[predecessor] = true
                    queue.append(Int32(predecessor))
                }
            }
        }
        guard start >= 0, live[Int(start)] else {
            return TransitionTable(classOfByte: classOfByte, classCount: classCount, targets: [], accepting: [], start: ByteDFA.dead)
        }
        if queue.count == count {
            return self
        }
        var renumbered = [Int32](repeating: ByteDFA.dead, count: count)
        var next: Int32 = 0
        for state in 0..<count where live[state] {
            renumbered[state] = next
            next += 1
        }
        var newTargets: [Int32] = []
        newTargets.reserveCapacity(Int(next) * classCount)
        var newAccepting: [Bool] = []
        for state in 0..<count where live[state] {
            for byteClass in 0..<classCount {
                let target = self.target(state, byteClass)
                newTargets.append(target >= 0 ? renumbered[Int(target)] : ByteDFA.dead)
            }
            newAccepting.append(accepting[state])
        }
        return TransitionTable(
            classOfByte: classOfByte, classCount: classCount, targets: newTargets,
            accepting: newAccepting, start: renumbered[Int(start)]
        )
    }

    // MARK: Canonical form

    /// The same automaton with states numbered in breadth-first order from
    /// the start (state 0) and byte classes merged wherever every state
    /// treats them alike, numbered by their lowest byte. Two automata for
    /// the same language that are both minimal have equal canonical forms.
    func canonical() -> TransitionTable {
        guard start >= 0 else {
            return TransitionTable(
                classOfByte: [UInt8](repeating: 0, count: 256), classCount: 1,
                targets: [], accepting: [], start: ByteDFA.dead
            )
        }
        let count = stateCount
        // Classes are numbered in the order of their lowest byte, so visiting
        // them in order visits bytes in order.
        var order = [Int32](repeating: ByteDFA.dead, count: count)
        var visit: [Int32] = [start]
        order[Int(start)] = 0
        var head = 0
        while head < visit.count {
            let state = Int(visit[head])
            head += 1
            for byteClass in 0..<classCount {
                let target = self.target(state, byteClass)
                if target >= 0, order[Int(target)] < 0 {
                    order[Int(target)] = Int32(visit.count)
                    visit.append(target)
                }
            }
        }
        // Each old class's column in the new numbering; equal columns merge.
        let reached = visit.count
        var columns = [Int32](repeating: ByteDFA.dead, count: classCount * reached)
        for newState in 0..<reached {
            let oldState = Int(visit[newState])
            for byteClass in 0..<classCount {
                let target = self.target(oldState, byteClass)
                if target >= 0 {
                    columns[byteClass * reached + newState] = order[Int(target)]
                }
            }
        }
        var classesByHash: [UInt64: [Int]] = [:]
        var newClassOfOldClass = [UInt8](repeating: 0, count: classCount)
        var representative: [Int] = []
        for oldClass in 0..<classCount {
            let column = columns[(oldClass * reached)..<((oldClass + 1) * reached)]
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for target in column {
                hash = (hash ^ UInt64(UInt32(bitPattern: target))) &* 0x100_0000_01B3
            }
            let candidates = classesByHash[hash, default: []]
            if let same = candidates.first(where: { columns[($0 * reached)..<(($0 + 1) * reached)] == column }) {
                newClassOfOldClass[oldClass] = newClassOfOldClass[same]
            } else {
                newClassOfOldClass[oldClass] = UInt8(truncatingIfNeeded: representative.count)
                representative.append(oldClass)
                classesByHash[hash, default: []].append(oldClass)
            }
        }
        let newClassOfByte = classOfByte.map { newClassOfOldClass[Int($0)] }
        let newClassCount = representative.count
        var newTargets = [Int32](repeating: ByteDFA.dead, count: reached * newClassCount)
        var newAccepting = [Bool](repeating: false, count: reached)
        for newState in 0..<reached {
            let oldState = Int(visit[newState])
            newAccepting[newState] = accepting[oldState]
            for (newClass, oldClass) in representative.enumerated() {
                let target = self.target(oldState, oldClass)
                newTargets[newState * newClassCount + newClass] = target >= 0 ? order[Int(target)] : ByteDFA.dead
            }
        }
        return TransitionTable(
            classOfByte: newClassOfByte, classCount: newClassCount, targets: newTargets,
            accepting: newAccepting, start: 0
        )
    }
}
