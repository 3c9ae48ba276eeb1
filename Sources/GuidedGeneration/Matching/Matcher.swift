/// Reads output byte by byte against a ``Grammar``: a pushdown recognizer
/// whose stacks live in an append-only arena.
///
/// Exists as the single definition of "valid output": masks, forced runs
/// and token acceptance are all built on ``step(_:_:into:)``. Stacks are
/// persistent (a push or a change of the top frame appends a record that
/// points at the unchanged frames below), so a state is a few integers and
/// exploring the token trie from a state costs no copies. Records added
/// while exploring are dropped with ``truncate(to:)``.
struct Matcher {
    let grammar: Grammar
    private(set) var arena: [FrameRecord] = []
    /// The elements written in arrays whose elements must differ.
    var values = UniqueValues()

    init(grammar: Grammar) {
        self.grammar = grammar
    }

    /// The state before any output: the root value about to start.
    mutating func initialState() -> [Alternative] {
        [Alternative(top: push(.value(grammar.root), parent: -1))]
    }

    /// Forgets records added after the arena had `count` of them.
    mutating func truncate(to count: Int) {
        if arena.count > count { arena.removeSubrange(count...) }
    }

    @inline(__always)
    private mutating func push(_ frame: Frame, parent: Int32) -> Int32 {
        arena.append(FrameRecord(frame: frame, parent: parent))
        return Int32(arena.count - 1)
    }

    // MARK: - Stepping

    /// Appends to `out` every alternative reached from `alternative` by `byte`.
    /// The bytes `reading` may take next if it is inside an object's key,
    /// past the key trie's root (where extra keys may start too): those
    /// its key trie goes on with, as ``step(_:_:into:)`` reads it. Nil for
    /// any other reading.
    func keyBytes(of reading: Alternative) -> ByteSet? {
        guard reading.leaf < 0, reading.top >= 0 else { return nil }
        let frame = arena[Int(reading.top)].frame
        guard frame.kind == .object, frame.keyNode != 0 else { return nil }
        let shape = Int(frame.node)
        let trie = grammar.objects[shape].keyTrie(frame.keySlot)
        return grammar.objects[shape].keyTries[trie].nextBytes(of: frame.keyNode, from: frame.position)
    }

    mutating func step(_ alternative: Alternative, _ byte: UInt8, into out: inout [Alternative]) {
        if alternative.leaf >= 0 {
            if grammar.hasUniqueArrays, alternative.top >= 0, arena[Int(alternative.top)].frame.kind == .element {
                stepElement(alternative, byte, into: &out)
                return
            }
            let leaf = alternative.leaf
            if let next = grammar.leafNext(leaf, alternative.leafState, byte) {
                if grammar.leafIsFinal(leaf, next) {
                    out.append(complete(alternative.top))
                } else {
                    out.append(Alternative(top: alternative.top, leaf: leaf, leafState: next))
                }
            } else if grammar.leafIsAccepting(leaf, alternative.leafState) {
                // A number ends where a byte cannot extend it; the byte
                // belongs to what follows.
                step(complete(alternative.top), byte, into: &out)
            }
            return
        }
        guard alternative.top >= 0 else { return }
        let record = arena[Int(alternative.top)]
        let frame = record.frame
        switch frame.kind {
        case .value:
            startValue(frame.node, parent: record.parent, byte, into: &out)

        case .object:
            // The shape's fields are read one by one: a copy of the shape
            // would retain and release its arrays at every byte.
            let shape = Int(frame.node)
            if frame.keyNode == 0, !grammar.objects[shape].extras.isEmpty, frame.position >= grammar.objects[shape].optionalTail {
                // Extra keys may start here: after a comma, or as the first
                // key (indented, each on a line of its own).
                if frame.emittedAny {
                    if byte == UInt8(ascii: ",") {
                        out.append(nextMember(push(.extra(frame.node, phase: .afterComma), parent: record.parent)))
                    }
                } else if grammar.layout != .indented {
                    if byte == UInt8(ascii: "\"") {
                        startExtraKey(shape: frame.node, parent: record.parent, byte, into: &out)
                    }
                } else if byte == UInt8(ascii: "\n") {
                    out.append(memberLine(over: push(.extra(frame.node, phase: .afterComma), parent: record.parent)))
                }
            }
            let trie = grammar.objects[shape].keyTrie(frame.keySlot)
            let position = frame.position
            guard let next = grammar.objects[shape].keyTries[trie].child(of: frame.keyNode, byte: byte, from: position) else { return }
            switch grammar.objects[shape].keyTries[trie].outcome(next) {
            case .none:
                let moved = push(.object(frame.node, keySlot: frame.keySlot, keyNode: next), parent: record.parent)
                if byte == UInt8(ascii: "\n") {
                    // An indented line: a key one level in, or the closing
                    // brace at the object's own level.
                    let level =
                        depth(below: record.parent)
                        + (grammar.objects[shape].keyTries[trie].child(of: next, byte: UInt8(ascii: "}"), from: position) == nil ? 1 : 0)
                    out.append(indentation(level, over: moved))
                } else {
                    out.append(Alternative(top: moved))
                }
            case .close:
                out.append(complete(record.parent))
            case .property(let index):
                let value = grammar.objects[shape].properties[Int(index)].value
                let waiting = push(.objectValue(frame.node, property: index), parent: record.parent)
                out.append(Alternative(top: push(.value(value), parent: waiting)))
            }

        case .objectValue:
            // Waiting for a value above it; never the top of a live stack.
            return

        case .sequence:
            guard frame.childStartsNext, case .sequence(let children) = grammar.nodes[Int(frame.node)] else { return }
            let waiting = push(.sequence(frame.node, child: frame.child), parent: record.parent)
            startValue(children[Int(frame.child)], parent: waiting, byte, into: &out)

        case .array:
            let count = frame.elementCount
            let minimum = grammar.minimumCount(of: frame.node)
            let expanded = grammar.isExpanded(frame.node)
            let set = frame.elementSet
            switch frame.arrayPhase {
            case .opened:
                if byte == UInt8(ascii: "]"), minimum == 0 {
                    out.append(complete(record.parent))
                }
                guard let item = grammar.element(of: frame.node, at: 0) else { return }
                if expanded {
                    // The first element's line.
                    if byte == UInt8(ascii: "\n") {
                        let next = push(.array(frame.node, count: count, phase: .afterComma, set: set), parent: record.parent)
                        out.append(indentation(depth(below: record.parent) + 1, over: next))
                    }
                } else {
                    startElement(item, of: frame, parent: record.parent, byte, into: &out)
                }
            case .afterElement:
                if byte == UInt8(ascii: ","), let item = grammar.element(of: frame.node, at: count),
                    !grammar.isUnique(frame.node) || hasFreshValue(set: set, node: item)
                {
                    let next = push(.array(frame.node, count: count, phase: .afterComma, set: set), parent: record.parent)
                    out.append(expanded ? indentation(depth(below: record.parent) + 1, newline: true, over: next) : separated(next))
                } else if count >= minimum {
                    if expanded, byte == UInt8(ascii: "\n") {
                        let next = push(.array(frame.node, count: count, phase: .closing, set: set), parent: record.parent)
                        out.append(indentation(depth(below: record.parent), over: next))
                    } else if !expanded, byte == UInt8(ascii: "]") {
                        out.append(complete(record.parent))
                    }
                }
            case .afterComma:
                guard let item = grammar.element(of: frame.node, at: count) else { return }
                startElement(item, of: frame, parent: record.parent, byte, into: &out)
            case .closing:
                if byte == UInt8(ascii: "]") {
                    out.append(complete(record.parent))
                }
            case .inElement:
                return
            }

        case .extra:
            switch frame.extraPhase {
            case .afterComma:
                if byte == UInt8(ascii: "\"") {
                    startExtraKey(shape: frame.node, parent: record.parent, byte, into: &out)
                }
            case .afterKey:
                if byte == UInt8(ascii: ":") {
                    out.append(separated(push(.extra(frame.node, phase: .afterColon, extraIndex: frame.extraIndex), parent: record.parent)))
                }
            case .afterColon:
                let waiting = push(.extra(frame.node, phase: .inValue, extraIndex: frame.extraIndex), parent: record.parent)
                startValue(grammar.objects[Int(frame.node)].extras[Int(frame.extraIndex)].value, parent: waiting, byte, into: &out)
            case .afterValue:
                if byte == UInt8(ascii: ",") {
                    out.append(nextMember(push(.extra(frame.node, phase: .afterComma), parent: record.parent)))
                } else if grammar.layout != .indented {
                    if byte == UInt8(ascii: "}") { out.append(complete(record.parent)) }
                } else if byte == UInt8(ascii: "\n") {
                    out.append(closingLine(over: push(.extra(frame.node, phase: .closing), parent: record.parent)))
                }
            case .closing:
                if byte == UInt8(ascii: "}") {
                    out.append(complete(record.parent))
                }
            case .inKey, .inValue:
                return
            }

        case .anyObject:
            switch frame.freeObjectPhase {
            case .opened:
                if byte == UInt8(ascii: "}") {
                    out.append(complete(record.parent))
                } else if grammar.layout != .indented {
                    if byte == UInt8(ascii: "\"") { startFreeKey(parent: record.parent, byte, into: &out) }
                } else if byte == UInt8(ascii: "\n") {
                    // Indented, the first key's line.
                    out.append(memberLine(over: push(.anyObject(.afterComma), parent: record.parent)))
                }
            case .afterComma:
                if byte == UInt8(ascii: "\"") { startFreeKey(parent: record.parent, byte, into: &out) }
            case .afterKey:
                if byte == UInt8(ascii: ":") {
                    out.append(separated(push(.anyObject(.afterColon), parent: record.parent)))
                }
            case .afterColon:
                let waiting = push(.anyObject(.inValue), parent: record.parent)
                startAnyValue(parent: waiting, byte, into: &out)
            case .afterValue:
                if byte == UInt8(ascii: ",") {
                    out.append(nextMember(push(.anyObject(.afterComma), parent: record.parent)))
                } else if grammar.layout != .indented {
                    if byte == UInt8(ascii: "}") { out.append(complete(record.parent)) }
                } else if byte == UInt8(ascii: "\n") {
                    out.append(closingLine(over: push(.anyObject(.closing), parent: record.parent)))
                }
            case .closing:
                if byte == UInt8(ascii: "}") {
                    out.append(complete(record.parent))
                }
            case .inValue, .inKey:
                return
            }

        case .anyArray:
            // Indented, the line break after `[` chooses one element a
            // line (``Frame/isExpanded``); any element chooses one line, where elements
            // are strings, numbers, booleans or null, as a list of them is
            // written in that layout (a list of objects or lists is one
            // element a line).
            let expanded = frame.isExpanded
            switch frame.freeArrayPhase {
            case .opened:
                if byte == UInt8(ascii: "]") {
                    out.append(complete(record.parent))
                } else if grammar.layout == .indented, byte == UInt8(ascii: "\n") {
                    out.append(memberLine(over: push(.anyArray(.afterComma, expanded: true), parent: record.parent)))
                } else {
                    let waiting = push(.anyArray(.inValue), parent: record.parent)
                    startAnyValue(parent: waiting, containers: grammar.layout != .indented, byte, into: &out)
                }
            case .afterComma:
                let waiting = push(.anyArray(.inValue, expanded: frame.isExpanded), parent: record.parent)
                startAnyValue(parent: waiting, containers: expanded || grammar.layout != .indented, byte, into: &out)
            case .afterValue:
                if byte == UInt8(ascii: ",") {
                    let next = push(.anyArray(.afterComma, expanded: frame.isExpanded), parent: record.parent)
                    out.append(expanded ? memberLine(newline: true, over: next) : separated(next))
                } else if !expanded {
                    if byte == UInt8(ascii: "]") { out.append(complete(record.parent)) }
                } else if byte == UInt8(ascii: "\n") {
                    out.append(closingLine(over: push(.anyArray(.closing, expanded: true), parent: record.parent)))
                }
            case .closing:
                if byte == UInt8(ascii: "]") {
                    out.append(complete(record.parent))
                }
            case .inValue:
                return
            }

        case .element:
            // Waiting for the element's leaf above it; never the top of a
            // live stack without one.
            return

        case .space:
            var rest = frame
            if rest.lineBreakDue {
                guard byte == UInt8(ascii: "\n") else { return }
                rest.lineBreakDue = false
            } else {
                guard byte == UInt8(ascii: " "), rest.spaces > 0 else { return }
                rest.spaces -= 1
            }
            out.append(rest.spaces == 0 && !rest.lineBreakDue ? Alternative(top: record.parent) : Alternative(top: push(rest, parent: record.parent)))
        }
    }

    /// The alternative after a `,` or `:` that led to the frame at `top`:
    /// that frame itself, or (in the spaced and indented layouts, where `: `
    /// and a one-line list's `, ` have a space) the space that comes first,
    /// on top of it.
    @inline(__always)
    private mutating func separated(_ top: Int32) -> Alternative {
        guard grammar.layout != .compact else { return Alternative(top: top) }
        return Alternative(top: push(.space(1), parent: top))
    }

    /// The alternative leading to the frame at `top` through an indented
    /// line's whitespace: a line break first when `newline`, then two spaces
    /// per `level`.
    @inline(__always)
    private mutating func indentation(_ level: Int32, newline: Bool = false, over top: Int32) -> Alternative {
        let spaces = level * JSONLayout.indentWidth
        guard spaces > 0 || newline else { return Alternative(top: top) }
        return Alternative(top: push(.space(spaces, lineBreak: newline), parent: top))
    }

    /// The alternative after the `,` between two members of the object or
    /// array whose frame is now at `top`: indented, the line break and
    /// indentation of the next member's line; else what ``separated(_:)``
    /// gives.
    @inline(__always)
    private mutating func nextMember(_ top: Int32) -> Alternative {
        grammar.layout == .indented ? memberLine(newline: true, over: top) : separated(top)
    }

    /// The alternative leading to container frame `top` through the
    /// indentation (after a line break first when `newline`) of a line
    /// that holds one of its members: a level deeper than the container.
    @inline(__always)
    private mutating func memberLine(newline: Bool = false, over top: Int32) -> Alternative {
        indentation(depth(below: top), newline: newline, over: top)
    }

    /// The alternative leading to container frame `top` through the
    /// indentation of its closing line, after the line break: the
    /// container's own level.
    @inline(__always)
    private mutating func closingLine(over top: Int32) -> Alternative {
        indentation(depth(below: top) - 1, over: top)
    }

    /// How many objects and arrays are open in the stack from `index` down:
    /// the indentation level of what their innermost one holds.
    func depth(below index: Int32) -> Int32 {
        var level: Int32 = 0
        var cursor = index
        while cursor >= 0 {
            let record = arena[Int(cursor)]
            if record.frame.kind.isContainer { level += 1 }
            cursor = record.parent
        }
        return level
    }

    /// Starts element `item` of array `frame` (whose parent is `parent`)
    /// with `byte`: above the array waiting for it and, when the array's
    /// elements must differ, the element's text (empty so far).
    private mutating func startElement(_ item: Int32, of frame: Frame, parent: Int32, _ byte: UInt8, into out: inout [Alternative]) {
        let waiting = push(.array(frame.node, count: frame.elementCount, phase: .inElement, set: frame.elementSet), parent: parent)
        guard grammar.isUnique(frame.node) else {
            startValue(item, parent: waiting, byte, into: &out)
            return
        }
        let element = push(.element(frame.node, text: UniqueValues.emptyText), parent: waiting)
        startValue(item, parent: element, byte, into: &out)
    }

    /// Reads `byte` in the leaf of an element whose array requires
    /// distinct elements (the top frame is its ``Frame/Kind/element``):
    /// the text grows by the byte, and the byte is refused where the
    /// element could then only end as one the array already has.
    private mutating func stepElement(_ alternative: Alternative, _ byte: UInt8, into out: inout [Alternative]) {
        let record = arena[Int(alternative.top)]
        let text = record.frame.elementText
        let set = arena[Int(record.parent)].frame.elementSet
        let leaf = alternative.leaf
        if let next = grammar.leafNext(leaf, alternative.leafState, byte) {
            let longer = values.text(text, appending: byte)
            if grammar.leafIsFinal(leaf, next) {
                if let done = finishElement(record, text: longer) { out.append(done) }
            } else if isLive(set: set, text: longer, leaf: leaf, state: next) {
                let moved = push(.element(record.frame.node, text: longer), parent: record.parent)
                out.append(Alternative(top: moved, leaf: leaf, leafState: next))
            }
        } else if grammar.leafIsAccepting(leaf, alternative.leafState) {
            // A number ends where a byte cannot extend it.
            if let done = finishElement(record, text: text) { step(done, byte, into: &out) }
        }
    }

    /// The array after the element of `record` (an ``Frame/Kind/element``
    /// frame) ended as `text`; nil when the array already has it.
    private mutating func finishElement(_ record: FrameRecord, text: Int32) -> Alternative? {
        let array = arena[Int(record.parent)]
        // A text that begins no member is none (the set's prefixes are
        // kept, and hashed: its list is as long as the array).
        guard !(values.prefixes(of: array.frame.elementSet).contains(text) && values.contains(array.frame.elementSet, text)) else { return nil }
        let set = values.set(array.frame.elementSet, adding: text)
        return Alternative(
            top: push(.array(array.frame.node, count: array.frame.elementCount + 1, phase: .afterElement, set: set), parent: array.parent))
    }

    /// Starts a value of `node` whose first byte is `byte`, above `parent`.
    private mutating func startValue(_ node: Int32, parent: Int32, _ byte: UInt8, into out: inout [Alternative]) {
        switch grammar.nodes[Int(node)] {
        case .leaf(let leaf):
            startLeaf(leaf, parent: parent, byte, into: &out)
        case .object(let shape):
            if byte == UInt8(ascii: "{") {
                out.append(Alternative(top: push(.object(shape), parent: parent)))
            }
        case .array, .tuple:
            if byte == UInt8(ascii: "[") {
                out.append(Alternative(top: push(.array(node, count: 0, phase: .opened), parent: parent)))
            }
        case .anyOf(let choices):
            for choice in choices {
                startValue(choice, parent: parent, byte, into: &out)
            }
        case .anyValue:
            startAnyValue(parent: parent, byte, into: &out)
        case .sequence(let children):
            let waiting = push(.sequence(node), parent: parent)
            startValue(children[0], parent: waiting, byte, into: &out)
        }
    }

    /// Starts an extra key of object shape `shape` (its opening quote is
    /// `byte`): one alternative per key language, at most one of which
    /// survives the key.
    private mutating func startExtraKey(shape: Int32, parent: Int32, _ byte: UInt8, into out: inout [Alternative]) {
        for (index, extra) in grammar.objects[Int(shape)].extras.enumerated() {
            let waiting = push(.extra(shape, phase: .inKey, extraIndex: Int32(index)), parent: parent)
            startLeaf(extra.key, parent: waiting, byte, into: &out)
        }
    }

    /// Starts a key of the free-form object whose frame's parent is
    /// `parent` (its opening quote is `byte`).
    private mutating func startFreeKey(parent: Int32, _ byte: UInt8, into out: inout [Alternative]) {
        let waiting = push(.anyObject(.inKey), parent: parent)
        startLeaf(SharedLeaf.anyString.rawValue, parent: waiting, byte, into: &out)
    }

    /// Starts a free-form value whose first byte is `byte`, above
    /// `parent`; only a string, number, boolean or null unless `containers`.
    private mutating func startAnyValue(parent: Int32, containers: Bool = true, _ byte: UInt8, into out: inout [Alternative]) {
        switch byte {
        case UInt8(ascii: "{"):
            guard containers else { return }
            out.append(Alternative(top: push(.anyObject(.opened), parent: parent)))
        case UInt8(ascii: "["):
            guard containers else { return }
            out.append(Alternative(top: push(.anyArray(.opened), parent: parent)))
        case UInt8(ascii: "\""):
            startLeaf(SharedLeaf.anyString.rawValue, parent: parent, byte, into: &out)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            startLeaf(SharedLeaf.boolean.rawValue, parent: parent, byte, into: &out)
        case UInt8(ascii: "n"):
            startLeaf(SharedLeaf.null.rawValue, parent: parent, byte, into: &out)
        default:
            startLeaf(SharedLeaf.anyNumber.rawValue, parent: parent, byte, into: &out)
        }
    }

    private mutating func startLeaf(_ leaf: Int32, parent: Int32, _ byte: UInt8, into out: inout [Alternative]) {
        if grammar.hasUniqueArrays, parent >= 0, arena[Int(parent)].frame.kind == .element {
            stepElement(Alternative(top: parent, leaf: leaf, leafState: grammar.leafInitial(leaf)), byte, into: &out)
            return
        }
        guard let next = grammar.leafNext(leaf, grammar.leafInitial(leaf), byte) else { return }
        if grammar.leafIsFinal(leaf, next) {
            out.append(complete(parent))
        } else {
            out.append(Alternative(top: parent, leaf: leaf, leafState: next))
        }
    }

    /// The alternative after the value that `waiting` was waiting for is
    /// complete.
    mutating func complete(_ waiting: Int32) -> Alternative {
        guard waiting >= 0 else { return Alternative(top: -1) }
        let record = arena[Int(waiting)]
        var frame = record.frame
        switch frame.kind {
        case .objectValue:
            frame = .object(frame.node, keySlot: Frame.keySlot(position: frame.property + 1, emittedAny: true))
        case .array:
            frame = .array(frame.node, count: frame.elementCount + 1, phase: .afterElement, set: frame.elementSet)
        case .element:
            // An element's leaf ends through ``stepElement``, which checks
            // the text against the array's; nothing completes the frame.
            assertionFailure("an element of an array with distinct elements completed without its check")
            return complete(record.parent)
        case .anyObject:
            frame.freeObjectPhase = frame.freeObjectPhase == .inKey ? .afterKey : .afterValue
        case .anyArray:
            frame.freeArrayPhase = .afterValue
        case .extra:
            frame.extraPhase = frame.extraPhase == .inKey ? .afterKey : .afterValue
        case .sequence:
            guard case .sequence(let children) = grammar.nodes[Int(frame.node)], Int(frame.child) + 1 < children.count else {
                // The last part is done: so is the sequence.
                return complete(record.parent)
            }
            frame = .sequence(frame.node, child: frame.child + 1, childStartsNext: true)
        case .value, .object, .space:
            break
        }
        return Alternative(top: push(frame, parent: record.parent))
    }

    // MARK: - States

    /// Every alternative reached from `state` by `byte`, duplicates removed.
    mutating func advance(_ state: [Alternative], _ byte: UInt8) -> [Alternative] {
        var out: [Alternative] = []
        for alternative in state { step(alternative, byte, into: &out) }
        if out.count > 1 { deduplicate(&out, from: 0) }
        return out
    }

    /// Removes alternatives in `alternatives[start...]` that read the output
    /// the same way as an earlier one (equal leaves and equal stacks).
    mutating func deduplicate(_ alternatives: inout [Alternative], from start: Int) {
        var index = start + 1
        while index < alternatives.count {
            var duplicate = false
            for earlier in start..<index where same(alternatives[earlier], alternatives[index]) {
                duplicate = true
                break
            }
            if duplicate { alternatives.remove(at: index) } else { index += 1 }
        }
    }

    private func same(_ lhs: Alternative, _ rhs: Alternative) -> Bool {
        guard lhs.leaf == rhs.leaf, lhs.leafState == rhs.leafState else { return false }
        var left = lhs.top
        var right = rhs.top
        while left >= 0, right >= 0 {
            if left == right { return true }
            let l = arena[Int(left)]
            let r = arena[Int(right)]
            guard l.frame == r.frame else { return false }
            left = l.parent
            right = r.parent
        }
        return left == right
    }

    /// Whether generation may stop here: some alternative has read a
    /// complete value (a number at the root can always go on, so this is not
    /// the same as ``isDone(_:)``).
    func canEnd(_ state: [Alternative]) -> Bool {
        state.contains { alternative in
            alternative.isDone
                || (alternative.top < 0 && alternative.leaf >= 0 && grammar.leafIsAccepting(alternative.leaf, alternative.leafState))
        }
    }

    /// Whether nothing at all may follow.
    func isDone(_ state: [Alternative]) -> Bool {
        !state.isEmpty && state.allSatisfy(\.isDone)
    }
}
