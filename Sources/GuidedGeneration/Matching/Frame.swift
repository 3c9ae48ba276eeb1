/// One level of the matcher's stack: a container (object, array) being
/// generated, or a value about to start.
///
/// Four integers, so a stack level copies and compares for free and a whole
/// state hashes cheaply. What `node` and the two packed integers mean
/// depends on ``kind``; they are made by the static constructors below and
/// read through the accessors named for what they hold, each inlined to the
/// same integer operation on the same storage.
struct Frame: Hashable, Sendable {
    enum Kind: UInt8, Hashable, Sendable {
        /// A value of grammar node `node` starts at the next byte.
        case value
        /// Inside object shape `node`, between properties: ``keySlot``
        /// (which key trie applies: ``position`` and ``emittedAny``), and
        /// ``keyNode``, the node reached in that trie.
        case object
        /// Object shape `node` is waiting for the value of ``property``.
        case objectValue
        /// Array node `node` with ``elementCount`` elements so far, at
        /// ``arrayPhase``; when its elements must differ, the set of those
        /// written (``elementSet``).
        case array
        /// A free-form object (`anyValue`) at ``freeObjectPhase``.
        case anyObject
        /// A free-form array (`anyValue`) at ``freeArrayPhase``;
        /// ``isExpanded`` when it is written one element a line
        /// (``JSONLayout/indented``, chosen at its first byte after `[`).
        case anyArray
        /// Sequence node `node` at ``child``: ``childStartsNext`` is false
        /// while the child is being generated above it, true when the child
        /// starts at the next byte.
        case sequence
        /// Object shape `node` among its extra keys, at ``extraPhase``;
        /// ``extraIndex`` the extra (key language) being written.
        case extra
        /// An element of array `node` whose elements must differ, being
        /// written by the leaf above it: ``elementText`` is its text so far
        /// (``UniqueValues``). On top of the array's frame.
        case element
        /// Layout whitespace on top of the frame it leads to:
        /// ``lineBreakDue`` while a line break is still to come, then
        /// ``spaces`` (the space after a `,` or `:` in the spaced layout is
        /// one space, no line break; an indented line is a line break and
        /// the indentation).
        case space

        /// Whether the frame stands for an open object or array: the
        /// indentation of a line is two spaces per such frame below it.
        var isContainer: Bool {
            switch self {
            case .object, .objectValue, .array, .anyObject, .anyArray, .extra: true
            case .value, .sequence, .space, .element: false
            }
        }
    }

    var kind: Kind
    var node: Int32
    /// The first packed integer; its meaning depends on ``kind``.
    private var a: Int32
    /// The second packed integer; its meaning depends on ``kind``.
    private var b: Int32

    @inline(__always)
    private init(_ kind: Kind, node: Int32, a: Int32 = 0, b: Int32 = 0) {
        self.kind = kind
        self.node = node
        self.a = a
        self.b = b
    }
}

// MARK: - Constructors, one per kind

extension Frame {
    /// A value of grammar node `node` about to start.
    @inline(__always)
    static func value(_ node: Int32) -> Frame {
        Frame(.value, node: node)
    }

    /// Object shape `shape` between properties, in key trie `keySlot`
    /// (``keySlot(position:emittedAny:)``) at trie node `keyNode` (0: the
    /// trie's root).
    @inline(__always)
    static func object(_ shape: Int32, keySlot: Int32 = 0, keyNode: Int32 = 0) -> Frame {
        Frame(.object, node: shape, a: keySlot, b: keyNode)
    }

    /// The key trie an object uses with properties from `position` on,
    /// after at least one property when `emittedAny` (a `,` comes first).
    @inline(__always)
    static func keySlot(position: Int32, emittedAny: Bool) -> Int32 {
        position * 2 + (emittedAny ? 1 : 0)
    }

    /// Object shape `shape` waiting for the value of its property `property`.
    @inline(__always)
    static func objectValue(_ shape: Int32, property: Int32) -> Frame {
        Frame(.objectValue, node: shape, a: property)
    }

    /// An array or tuple frame: `count` elements so far, at `phase`; `set`
    /// the elements written, for an array whose elements must differ
    /// (``UniqueValues``; the empty set otherwise). The phase takes the
    /// three low bits of the second integer, the set the rest.
    @inline(__always)
    static func array(_ node: Int32, count: Int32, phase: ArrayPhase, set: Int32 = UniqueValues.emptySet) -> Frame {
        Frame(.array, node: node, a: count, b: phase.rawValue | set << 3)
    }

    /// A free-form object at `phase`.
    @inline(__always)
    static func anyObject(_ phase: FreeObjectPhase) -> Frame {
        Frame(.anyObject, node: 0, a: phase.rawValue)
    }

    /// A free-form array at `phase`, written one element a line when `expanded`.
    @inline(__always)
    static func anyArray(_ phase: FreeArrayPhase, expanded: Bool = false) -> Frame {
        Frame(.anyArray, node: 0, a: phase.rawValue, b: expanded ? 1 : 0)
    }

    /// Sequence node `node` at child `child`, which starts at the next byte
    /// when `childStartsNext` and is being generated above it otherwise.
    @inline(__always)
    static func sequence(_ node: Int32, child: Int32 = 0, childStartsNext: Bool = false) -> Frame {
        Frame(.sequence, node: node, a: child, b: childStartsNext ? 1 : 0)
    }

    /// Object shape `shape` among its extra keys, at `phase`, writing extra
    /// `extraIndex`.
    @inline(__always)
    static func extra(_ shape: Int32, phase: ExtraPhase, extraIndex: Int32 = 0) -> Frame {
        Frame(.extra, node: shape, a: phase.rawValue, b: extraIndex)
    }

    /// An element of array `node` whose elements must differ, its text so
    /// far `text` (``UniqueValues``).
    @inline(__always)
    static func element(_ node: Int32, text: Int32) -> Frame {
        Frame(.element, node: node, a: text)
    }

    /// Layout whitespace: a line break first when `lineBreak`, then `spaces`.
    @inline(__always)
    static func space(_ spaces: Int32, lineBreak: Bool = false) -> Frame {
        Frame(.space, node: 0, a: spaces, b: lineBreak ? 1 : 0)
    }
}

// MARK: - Accessors, by kind

extension Frame {
    /// ``Kind/object``: which key trie applies,
    /// ``keySlot(position:emittedAny:)``.
    @inline(__always)
    var keySlot: Int32 { a }

    /// ``Kind/object``: the position of the first property the object may
    /// still write.
    @inline(__always)
    var position: Int32 { a >> 1 }

    /// ``Kind/object``: whether a property was written (the next member
    /// starts with `,`).
    @inline(__always)
    var emittedAny: Bool { a & 1 == 1 }

    /// ``Kind/object``: the node reached in the key trie; 0 at its root,
    /// before a key's first byte.
    @inline(__always)
    var keyNode: Int32 { b }

    /// ``Kind/objectValue``: the property whose value is awaited.
    @inline(__always)
    var property: Int32 { a }

    /// ``Kind/array``: the elements written so far.
    @inline(__always)
    var elementCount: Int32 { a }

    /// ``Kind/array``: where the array is.
    @inline(__always)
    var arrayPhase: ArrayPhase { ArrayPhase(rawValue: b & 7) ?? .inElement }

    /// ``Kind/array``: the elements it has written (``UniqueValues``).
    @inline(__always)
    var elementSet: Int32 { b >> 3 }

    /// ``Kind/anyObject``: where the free-form object is.
    @inline(__always)
    var freeObjectPhase: FreeObjectPhase {
        get { FreeObjectPhase(rawValue: a) ?? .inValue }
        set { a = newValue.rawValue }
    }

    /// ``Kind/anyArray``: where the free-form array is.
    @inline(__always)
    var freeArrayPhase: FreeArrayPhase {
        get { FreeArrayPhase(rawValue: a) ?? .inValue }
        set { a = newValue.rawValue }
    }

    /// ``Kind/anyArray``: written one element a line.
    @inline(__always)
    var isExpanded: Bool { b == 1 }

    /// ``Kind/sequence``: the child being generated or about to start.
    @inline(__always)
    var child: Int32 { a }

    /// ``Kind/sequence``: the child starts at the next byte (it is not yet
    /// being generated above the frame).
    @inline(__always)
    var childStartsNext: Bool { b == 1 }

    /// ``Kind/extra``: where the object is among its extra keys.
    @inline(__always)
    var extraPhase: ExtraPhase {
        get { ExtraPhase(rawValue: a) ?? .inValue }
        set { a = newValue.rawValue }
    }

    /// ``Kind/extra``: the extra (key language) being written.
    @inline(__always)
    var extraIndex: Int32 { b }

    /// ``Kind/element``: the element's text so far (``UniqueValues``).
    @inline(__always)
    var elementText: Int32 { a }

    /// ``Kind/space``: the spaces still to come (after the line break, if
    /// one is due).
    @inline(__always)
    var spaces: Int32 {
        get { a }
        set { a = newValue }
    }

    /// ``Kind/space``: a line break is still to come.
    @inline(__always)
    var lineBreakDue: Bool {
        get { b == 1 }
        set { b = newValue ? 1 : 0 }
    }
}

/// Where an array frame is.
enum ArrayPhase: Int32 {
    /// Right after `[`: an element or (if none are required) `]`.
    case opened = 0
    /// After an element: `,` (if more are allowed) or `]` (if enough).
    case afterElement = 1
    /// After `,`: an element.
    case afterComma = 2
    /// Waiting for the element being generated above it.
    case inElement = 3
    /// After the line break and indentation that close an array written one
    /// element a line: `]`.
    case closing = 4
}

/// Where an object's extra-key frame is.
enum ExtraPhase: Int32 {
    /// After `,` (indented: and the key's line break and indentation):
    /// the next key's opening quote.
    case afterComma = 0
    /// Waiting for the key leaf above it.
    case inKey = 1
    /// After the key: `:`.
    case afterKey = 2
    /// After `:`: the value.
    case afterColon = 3
    /// Waiting for the value above it.
    case inValue = 4
    /// After the value: `,` or `}` (indented: `,` or the closing line
    /// break).
    case afterValue = 5
    /// Indented, after the line break and indentation that close the
    /// object: `}`.
    case closing = 6
}

/// Where a free-form object frame is.
enum FreeObjectPhase: Int32 {
    /// Right after `{`: a key or `}` (indented: `}` or the first key's
    /// line break).
    case opened = 0
    case afterKey = 1
    case inValue = 2
    /// After a value: `,` or `}` (indented: `,` or the closing line break).
    case afterValue = 3
    /// After `,` (indented: and the key's line break and indentation): a key.
    case afterComma = 4
    case inKey = 5
    case afterColon = 6
    /// Indented, after the line break and indentation that close the
    /// object: `}`.
    case closing = 7
}

/// Where a free-form array frame is.
enum FreeArrayPhase: Int32 {
    /// Right after `[`: an element or `]` (indented: or the line break
    /// that puts each element on a line of its own).
    case opened = 0
    /// After `,` (one element a line: and the line break and
    /// indentation): an element.
    case afterComma = 1
    case inValue = 2
    /// After an element: `,` or `]` (one element a line: `,` or the
    /// closing line break).
    case afterValue = 3
    /// One element a line, after the line break and indentation that
    /// close the array: `]`.
    case closing = 4
}

/// A frame and the index of the frame below it in the matcher's arena.
struct FrameRecord: Sendable {
    var frame: Frame
    var parent: Int32
}

/// One way the output so far can be read: the top of a stack of frames in
/// the arena, and the leaf being generated on top of it, if any.
///
/// Several alternatives coexist only while the bytes so far fit more than
/// one branch of an `anyOf` (two tagged enum cases before the tag is
/// complete); usually there is one.
struct Alternative: Hashable, Sendable {
    /// Arena index of the top frame; -1 when no frame is left.
    var top: Int32
    /// The leaf automaton being run, or -1.
    var leaf: Int32
    var leafState: LeafState

    init(top: Int32, leaf: Int32 = -1, leafState: LeafState = LeafState()) {
        self.top = top
        self.leaf = leaf
        self.leafState = leafState
    }

    /// The whole value is complete: nothing may follow.
    var isDone: Bool { top < 0 && leaf < 0 }
}
