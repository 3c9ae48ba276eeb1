extension TransitionTable {
    /// The minimal automaton for the same language (Hopcroft's partition
    /// refinement, O(m·log n) for n states and m transitions): states no
    /// input can tell apart are merged. Expects a pruned automaton. Missing
    /// transitions need no explicit sink state: refinement for partial
    /// transition functions is exact when every initial block starts out
    /// waiting (Valmari and Lehtinen, 2008).
    func minimized() -> TransitionTable {
        let count = stateCount
        guard start >= 0, count > 1 else { return self }

        // Predecessors of each state, with the class of the edge.
        var inStart = [Int32](repeating: 0, count: count + 1)
        for target in targets where target >= 0 {
            inStart[Int(target) + 1] += 1
        }
        for state in 0..<count {
            inStart[state + 1] += inStart[state]
        }
        var fill = inStart
        var inSource = [Int32](repeating: 0, count: Int(inStart[count]))
        var inClass = [UInt8](repeating: 0, count: Int(inStart[count]))
        for state in 0..<count {
            for byteClass in 0..<classCount {
                let target = Int(self.target(state, byteClass))
                guard target >= 0 else { continue }
                let slot = Int(fill[target])
                inSource[slot] = Int32(state)
                inClass[slot] = UInt8(truncatingIfNeeded: byteClass)
                fill[target] += 1
            }
        }

        var partition = RefinablePartition(count: count) { state in accepting[state] }
        var waiting = (0..<partition.blockCount).map { Int32($0) }
        var isWaiting = [Bool](repeating: true, count: partition.blockCount)

        var splitter: [Int32] = []
        var sourcesByClass = [[Int32]](repeating: [], count: classCount)
        var touchedClasses: [Int] = []
        while let block = waiting.popLast() {
            isWaiting[Int(block)] = false
            // The splitter's members now; the block may split below.
            splitter.removeAll(keepingCapacity: true)
            partition.appendMembers(of: Int(block), to: &splitter)
            for state in splitter {
                for slot in Int(inStart[Int(state)])..<Int(inStart[Int(state) + 1]) {
                    let byteClass = Int(inClass[slot])
                    if sourcesByClass[byteClass].isEmpty {
                        touchedClasses.append(byteClass)
                    }
                    sourcesByClass[byteClass].append(inSource[slot])
                }
            }
            for byteClass in touchedClasses {
                for source in sourcesByClass[byteClass] {
                    partition.mark(Int(source))
                }
                sourcesByClass[byteClass].removeAll(keepingCapacity: true)
                partition.splitMarked { original, split, splitIsSmaller in
                    isWaiting.append(false)
                    // Hopcroft: a waiting block waits in both halves; otherwise
                    // the smaller half suffices.
                    let next = isWaiting[original] || splitIsSmaller ? split : original
                    if !isWaiting[next] {
                        waiting.append(Int32(next))
                        isWaiting[next] = true
                    }
                }
            }
            touchedClasses.removeAll(keepingCapacity: true)
        }

        // One state per block.
        var newNumber = [Int32](repeating: ByteDFA.dead, count: partition.blockCount)
        var representatives: [Int] = []
        for state in 0..<count {
            let block = partition.block(of: state)
            if newNumber[block] < 0 {
                newNumber[block] = Int32(representatives.count)
                representatives.append(state)
            }
        }
        if representatives.count == count {
            return self
        }
        var newTargets: [Int32] = []
        newTargets.reserveCapacity(representatives.count * classCount)
        var newAccepting: [Bool] = []
        for state in representatives {
            for byteClass in 0..<classCount {
                let target = self.target(state, byteClass)
                newTargets.append(target >= 0 ? newNumber[partition.block(of: Int(target))] : ByteDFA.dead)
            }
            newAccepting.append(accepting[state])
        }
        return TransitionTable(
            classOfByte: classOfByte, classCount: classCount, targets: newTargets,
            accepting: newAccepting, start: newNumber[partition.block(of: Int(start))]
        )
    }
}
