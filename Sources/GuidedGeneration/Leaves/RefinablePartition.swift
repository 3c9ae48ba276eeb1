/// A partition of `0..<count` into blocks that can be split by marking
/// members, each operation in time proportional to the members touched.
///
/// Exists for Hopcroft's minimization: each block is a contiguous slice of
/// one permutation array, its marked members kept at the slice's front.
struct RefinablePartition {
    private var members: [Int32]
    private var position: [Int32]
    private var blockOf: [Int32]
    private var first: [Int32]
    private var end: [Int32]
    /// Members in `first[b]..<markedEnd[b]` are marked.
    private var markedEnd: [Int32]
    private var touched: [Int32] = []

    /// Two blocks: the members for which `inFirstBlock` holds, and the rest
    /// (one block when either is empty).
    init(count: Int, inFirstBlock: (Int) -> Bool) {
        members = []
        members.reserveCapacity(count)
        for element in 0..<count where inFirstBlock(element) {
            members.append(Int32(element))
        }
        let firstSize = members.count
        for element in 0..<count where !inFirstBlock(element) {
            members.append(Int32(element))
        }
        position = [Int32](repeating: 0, count: count)
        blockOf = [Int32](repeating: 0, count: count)
        for (index, element) in members.enumerated() {
            position[Int(element)] = Int32(index)
        }
        if firstSize == 0 || firstSize == count {
            first = [0]
            end = [Int32(count)]
        } else {
            first = [0, Int32(firstSize)]
            end = [Int32(firstSize), Int32(count)]
            for index in firstSize..<count {
                blockOf[Int(members[index])] = 1
            }
        }
        markedEnd = first
    }

    var blockCount: Int { first.count }

    func block(of element: Int) -> Int { Int(blockOf[element]) }

    func size(of block: Int) -> Int { Int(end[block] - first[block]) }

    func appendMembers(of block: Int, to array: inout [Int32]) {
        array.append(contentsOf: members[Int(first[block])..<Int(end[block])])
    }

    mutating func mark(_ element: Int) {
        let block = Int(blockOf[element])
        let index = Int(position[element])
        let boundary = Int(markedEnd[block])
        guard index >= boundary else { return }
        if boundary == Int(first[block]) {
            touched.append(Int32(block))
        }
        let other = members[boundary]
        members[boundary] = Int32(element)
        members[index] = other
        position[element] = Int32(boundary)
        position[Int(other)] = Int32(index)
        markedEnd[block] += 1
    }

    /// Splits every block with both marked and unmarked members: the marked
    /// ones become a new block. `didSplit(original, new, newIsSmaller)` is
    /// called for each split. Clears all marks.
    mutating func splitMarked(_ didSplit: (Int, Int, Bool) -> Void) {
        for touchedIndex in touched.indices {
            let block = Int(touched[touchedIndex])
            if markedEnd[block] == end[block] {
                markedEnd[block] = first[block]
                continue
            }
            let newBlock = first.count
            first.append(first[block])
            end.append(markedEnd[block])
            markedEnd.append(first[block])
            for index in Int(first[block])..<Int(markedEnd[block]) {
                blockOf[Int(members[index])] = Int32(newBlock)
            }
            first[block] = markedEnd[block]
            markedEnd[block] = first[block]
            didSplit(block, newBlock, size(of: newBlock) <= size(of: block))
        }
        touched.removeAll(keepingCapacity: true)
    }
}
