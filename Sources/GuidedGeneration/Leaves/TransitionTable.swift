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
    /// Each subset is kept once, so this bounds the construction's memory
    /// where the state count does not: a pattern searched for anywhere
    /// (`.{900}` as JSON Schema's `pattern`) has a few thousand DFA states,
    /// each a set of hundreds of positions, and memory grows with the
    /// square of the count.
    static let maximumSubsetEntries = 1_000_000

    /// The most steps the subset construction may take: an NFA state
    /// visited or an epsilon edge followed while closing a set, an edge
    /// target gathered for a byte class, a member compared while looking a
    /// set up, and ``stepsPerCell`` for each cell of the transition table.
    ///
    /// Exists because time does not follow ``maximumSubsetEntries``: every
    /// DFA state closes a set for each group of byte classes its positions
    /// move on, and most of those sets are already known, so they store
    /// nothing. Under the entry cap alone a search for `.{30}x.{30}` took
    /// 5 s in a debug build, and 14 s behind a class of 47 single bytes
    /// (47 more byte classes). With this bound no pattern takes much more
    /// than half a second to build or refuse in a debug build.
    static let maximumSubsetWork = 16_000_000

    /// The steps counted for each cell of the transition table (a DFA
    /// state times a byte class): pruning, minimizing and canonicalizing
    /// go over every cell again, in about five steps' time together, so
    /// the bound covers them too.
    static let stepsPerCell = 5

    /// The deterministic automaton accepting what `nfa` accepts from
    /// `start`; only states reachable from `start` are built. Throws past
    /// `stateLimit` states, past ``maximumSubsetEntries`` or past
    /// ``maximumSubsetWork``.
    static func determinize(_ nfa: ByteNFA, from start: Int32, stateLimit: Int) throws(GuidedGenerationError) -> TransitionTable {
        var construction = SubsetConstruction(nfa, stateLimit: stateLimit)
        return try construction.run(from: start)
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

/// One run of the subset construction behind
/// ``TransitionTable/determinize(_:from:stateLimit:)``.
///
/// A struct with mutating methods rather than local functions over
/// captured variables, flat arrays rather than an array per state or per
/// byte class, and `while` loops over indices rather than range iterators,
/// because the construction must stay fast in debug builds too (the
/// fuzzer's): there each captured-variable access is an exclusivity check,
/// each nested-array access a retain and release, and each range step a
/// generic call, several times the work itself.
private struct SubsetConstruction {
    let subject: String
    let stateLimit: Int
    let accept: Int
    /// The class of each byte; bytes of one class always move alike.
    let classOfByte: [UInt8]
    let classCount: Int

    // The NFA flattened: state `s`'s edges are `edgeStart[s]..<edgeStart[s + 1]`,
    // each edge's bytes a range of classes; likewise its epsilon edges.
    let edgeStart: [Int32]
    let edgeLowClass: [Int32]
    let edgeHighClass: [Int32]
    let edgeTarget: [Int32]
    let epsilonStart: [Int32]
    let epsilonTarget: [Int32]
    /// Only states with byte edges, and the accepting state, tell subsets
    /// apart; the rest are passed through by epsilon closure.
    let important: [Bool]

    /// Steps taken so far (see ``TransitionTable/maximumSubsetWork``).
    var work = 0

    // The closure being built: its states carry `currentStamp`, its
    // important ones are listed in `closureMembers` in the order the walk
    // met them, with `closureHash`, a hash that does not depend on that
    // order. Sets are compared by hash and stamps, never sorted: sorting
    // each set was most of the construction's time. `stack[..<depth]` is
    // the walk's to-do list.
    var stamp: [UInt32]
    var currentStamp: UInt32 = 0
    var stack: [Int32] = []
    var depth = 0
    var closureMembers: [Int32] = []
    var closureHash: UInt64 = 0

    // Every set found so far, members back to back: set `id` (DFA state
    // `id`) is `members[memberStart[id]..<memberStart[id + 1]]`. `slots` is
    // an open-addressing table of ids by `setHash`, at most half full.
    var members: [Int32] = []
    var memberStart: [Int] = [0]
    var setHash: [UInt64] = []
    var accepting: [Bool] = []
    var slots = [Int32](repeating: -1, count: 1024)

    // The NFA targets the current set moves to on each byte class: a list
    // per class threaded through `gatheredTarget`/`gatheredNext` from
    // `bucketHead` (-1: none), newest first, with its length and an
    // order-dependent hash. Classes gather in one order, so equal lists
    // come out equal. `touched` lists the classes with a target.
    var gatheredTarget: [Int32] = []
    var gatheredNext: [Int32] = []
    var bucketHead: [Int32]
    var bucketLength: [Int]
    var bucketHash: [UInt64]
    var touched: [Int] = []

    init(_ nfa: ByteNFA, stateLimit: Int) {
        subject = nfa.subject
        self.stateLimit = stateLimit
        accept = Int(nfa.accept)
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
        self.classOfByte = classOfByte
        self.classCount = classCount

        let nfaCount = nfa.stateCount
        var edgeStart = [Int32](repeating: 0, count: nfaCount + 1)
        var edgeLowClass: [Int32] = []
        var edgeHighClass: [Int32] = []
        var edgeTarget: [Int32] = []
        var epsilonStart = [Int32](repeating: 0, count: nfaCount + 1)
        var epsilonTarget: [Int32] = []
        var important = [Bool](repeating: false, count: nfaCount)
        // A count of something empty (`(?:){0,1000}`) repeats one epsilon
        // edge a thousand times: each is kept once.
        var lastSource = [Int32](repeating: -1, count: nfaCount)
        for state in 0..<nfaCount {
            for edge in nfa.edges[state] {
                edgeLowClass.append(Int32(classOfByte[Int(edge.low)]))
                edgeHighClass.append(Int32(classOfByte[Int(edge.high)]))
                edgeTarget.append(edge.target)
            }
            edgeStart[state + 1] = Int32(edgeTarget.count)
            for target in nfa.epsilons[state] where lastSource[Int(target)] != Int32(state) {
                lastSource[Int(target)] = Int32(state)
                epsilonTarget.append(target)
            }
            epsilonStart[state + 1] = Int32(epsilonTarget.count)
            important[state] = !nfa.edges[state].isEmpty
        }
        important[accept] = true
        self.edgeStart = edgeStart
        self.edgeLowClass = edgeLowClass
        self.edgeHighClass = edgeHighClass
        self.edgeTarget = edgeTarget
        self.epsilonStart = epsilonStart
        self.epsilonTarget = epsilonTarget
        self.important = important
        stamp = [UInt32](repeating: 0, count: nfaCount)
        bucketHead = [Int32](repeating: -1, count: classCount)
        bucketLength = [Int](repeating: 0, count: classCount)
        bucketHash = [UInt64](repeating: 0, count: classCount)
    }

    /// Counts `steps` against ``TransitionTable/maximumSubsetWork``.
    mutating func spend(_ steps: Int) throws(GuidedGenerationError) {
        work += steps
        guard work <= TransitionTable.maximumSubsetWork else {
            throw .unsupportedGuide(
                "\(subject) is too large to enforce: building its automaton takes more than \(TransitionTable.maximumSubsetWork) steps")
        }
    }

    /// Starts a closure with no seeds.
    mutating func beginClosure() {
        currentStamp &+= 1
        closureMembers.removeAll(keepingCapacity: true)
        closureHash = 0
        depth = 0
    }

    /// Adds `state` to the closure's to-do list unless already met.
    mutating func seed(_ state: Int32) {
        guard stamp[Int(state)] != currentStamp else { return }
        stamp[Int(state)] = currentStamp
        if depth < stack.count {
            stack[depth] = state
        } else {
            stack.append(state)
        }
        depth += 1
    }

    /// Walks the epsilon closure of the seeds into `closureMembers` and
    /// `closureHash`.
    mutating func finishClosure() throws(GuidedGenerationError) {
        var steps = 0
        while depth > 0 {
            depth -= 1
            let state = stack[depth]
            steps += 1
            if important[Int(state)] {
                closureMembers.append(state)
                closureHash &+= Self.mixed(state)
            }
            var index = Int(epsilonStart[Int(state)])
            let end = Int(epsilonStart[Int(state) + 1])
            steps += end - index
            while index < end {
                seed(epsilonTarget[index])
                index += 1
            }
        }
        try spend(steps)
    }

    /// The id of the set the last closure collected, added as a new DFA
    /// state if it is new.
    mutating func identify() throws(GuidedGenerationError) -> Int32 {
        var mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: closureHash) & mask
        while slots[slot] >= 0 {
            let id = Int(slots[slot])
            let end = memberStart[id + 1]
            if setHash[id] == closureHash, end - memberStart[id] == closureMembers.count {
                // Equal sizes, and every member of the known set is in the
                // closure: the same set.
                var index = memberStart[id]
                while index < end, stamp[Int(members[index])] == currentStamp {
                    index += 1
                }
                try spend(closureMembers.count)
                if index == end {
                    return Int32(id)
                }
            }
            slot = (slot + 1) & mask
        }
        guard setHash.count < stateLimit else {
            throw ByteNFA.tooLarge(subject, limit: stateLimit)
        }
        guard members.count + closureMembers.count <= TransitionTable.maximumSubsetEntries else {
            throw .unsupportedGuide(
                "\(subject) is too large to enforce: its automaton needs more than \(TransitionTable.maximumSubsetEntries) state-set entries to build"
            )
        }
        let id = Int32(setHash.count)
        members.append(contentsOf: closureMembers)
        memberStart.append(members.count)
        setHash.append(closureHash)
        accepting.append(stamp[accept] == currentStamp)
        slots[slot] = id
        if setHash.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (known, knownHash) in setHash.enumerated() {
                var free = Int(truncatingIfNeeded: knownHash) & mask
                while slots[free] >= 0 {
                    free = (free + 1) & mask
                }
                slots[free] = Int32(known)
            }
        }
        return id
    }

    /// Gathers, per byte class, the targets of set `id`'s edges into the
    /// buckets, listing the classes in `touched`.
    mutating func gather(_ id: Int) throws(GuidedGenerationError) {
        var steps = 0
        var index = memberStart[id]
        let membersEnd = memberStart[id + 1]
        while index < membersEnd {
            let state = Int(members[index])
            var edge = Int(edgeStart[state])
            let edgesEnd = Int(edgeStart[state + 1])
            while edge < edgesEnd {
                let target = edgeTarget[edge]
                let mixedTarget = UInt64(UInt32(bitPattern: target))
                var byteClass = Int(edgeLowClass[edge])
                let high = Int(edgeHighClass[edge])
                steps += high - byteClass + 1
                while byteClass <= high {
                    let head = bucketHead[byteClass]
                    if head < 0 {
                        touched.append(byteClass)
                        bucketLength[byteClass] = 1
                        bucketHash[byteClass] = (0xCBF2_9CE4_8422_2325 ^ mixedTarget) &* 0x100_0000_01B3
                    } else {
                        bucketLength[byteClass] += 1
                        bucketHash[byteClass] = (bucketHash[byteClass] ^ mixedTarget) &* 0x100_0000_01B3
                    }
                    bucketHead[byteClass] = Int32(gatheredTarget.count)
                    gatheredTarget.append(target)
                    gatheredNext.append(head)
                    byteClass += 1
                }
                edge += 1
            }
            index += 1
        }
        try spend(steps)
    }

    /// Whether byte classes `first` and `second` gathered the same targets
    /// in the same order.
    mutating func sameBucket(_ first: Int, _ second: Int) throws(GuidedGenerationError) -> Bool {
        guard bucketHash[first] == bucketHash[second], bucketLength[first] == bucketLength[second] else {
            return false
        }
        try spend(bucketLength[first])
        var left = Int(bucketHead[first])
        var right = Int(bucketHead[second])
        while left >= 0 {
            guard gatheredTarget[left] == gatheredTarget[right] else { return false }
            left = Int(gatheredNext[left])
            right = Int(gatheredNext[right])
        }
        return true
    }

    /// Builds every DFA state reachable from `start`, breadth first.
    mutating func run(from start: Int32) throws(GuidedGenerationError) -> TransitionTable {
        beginClosure()
        seed(start)
        try finishClosure()
        _ = try identify()
        var targets: [Int32] = []
        // Appended whole per state: an array appends as one copy, where a
        // `repeatElement` is stepped through element by element in debug
        // builds.
        let deadRow = [Int32](repeating: ByteDFA.dead, count: classCount)
        // Per DFA state, the classes already closed, by bucket hash: classes
        // that gather the same targets (most of them, under `.`) share one
        // closure. At most 256 classes, so 512 slots stay half empty.
        var closedRow = [Int](repeating: -1, count: 512)
        var closedClass = [Int](repeating: 0, count: 512)
        var current = 0
        while current < setHash.count {
            try spend(classCount * TransitionTable.stepsPerCell)
            let row = targets.count
            targets.append(contentsOf: deadRow)
            try gather(current)
            var position = 0
            while position < touched.count {
                let byteClass = touched[position]
                position += 1
                var slot = Int(truncatingIfNeeded: bucketHash[byteClass]) & 511
                var shared = false
                while closedRow[slot] == current {
                    let other = closedClass[slot]
                    if try sameBucket(other, byteClass) {
                        targets[row + byteClass] = targets[row + other]
                        shared = true
                        break
                    }
                    slot = (slot + 1) & 511
                }
                if shared {
                    continue
                }
                closedRow[slot] = current
                closedClass[slot] = byteClass
                beginClosure()
                var entry = Int(bucketHead[byteClass])
                while entry >= 0 {
                    seed(gatheredTarget[entry])
                    entry = Int(gatheredNext[entry])
                }
                try spend(bucketLength[byteClass])
                try finishClosure()
                if !closureMembers.isEmpty {
                    targets[row + byteClass] = try identify()
                }
            }
            for byteClass in touched {
                bucketHead[byteClass] = -1
            }
            touched.removeAll(keepingCapacity: true)
            gatheredTarget.removeAll(keepingCapacity: true)
            gatheredNext.removeAll(keepingCapacity: true)
            current += 1
        }
        return TransitionTable(
            classOfByte: classOfByte, classCount: classCount, targets: targets,
            accepting: accepting, start: 0
        )
    }

    /// A well-spread 64-bit value for an NFA state (SplitMix64's
    /// finalizer): summed over a set's members it gives a hash that does
    /// not depend on their order.
    static func mixed(_ state: Int32) -> UInt64 {
        var bits = UInt64(UInt32(bitPattern: state)) &+ 0x9E37_79B9_7F4A_7C15
        bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
        return bits ^ (bits >> 31)
    }
}
