/// One level of the matcher's stack: a container (object, array) being
/// generated, or a value about to start.
///
/// Four integers, so a stack level copies and compares for free and a whole
/// state hashes cheaply. What `node`, `a` and `b` mean depends on ``kind``.
struct Frame: Hashable, Sendable {
    enum Kind: UInt8, Hashable, Sendable {
        /// A value of grammar node `node` starts at the next byte.
        case value
        /// Inside object shape `node`, between properties: `a` is
        /// `position * 2 + (emittedAny ? 1 : 0)` (which key trie applies),
        /// `b` the node reached in that trie.
        case object
        /// Object shape `node` is waiting for the value of property `a`.
        case objectValue
        /// Array node `node` with `a` elements so far; `b` holds its
        /// ``ArrayPhase`` and, when its elements must differ, the set of
        /// those written (``arrayPhase``, ``elementSet``).
        case array
        /// A free-form object (`anyValue`); `a` is ``FreeObjectPhase``.
        case anyObject
        /// A free-form array (`anyValue`); `a` is ``FreeArrayPhase``, `b`
        /// 1 when it is written one element a line (``JSONLayout/indented``,
        /// chosen at its first byte after `[`), 0 on one line.
        case anyArray
        /// Sequence node `node` at child `a`: `b` is 0 while the child is
        /// being generated above it, 1 when the child starts at the next byte.
        case sequence
        /// Object shape `node` among its extra keys: `a` is ``ExtraPhase``,
        /// `b` the extra (key language) being written.
        case extra
        /// An element of array `node` whose elements must differ, being
        /// written by the leaf above it: `a` is its text so far
        /// (``UniqueValues``). On top of the array's frame.
        case element
        /// Layout whitespace on top of the frame it leads to: `b` is 1
        /// while a line break is still to come, `a` the spaces after it (the
        /// space after a `,` or `:` in the spaced layout is `a` 1, `b` 0; an
        /// indented line is `b` 1 and the indentation).
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
    var a: Int32
    var b: Int32

    init(_ kind: Kind, node: Int32, a: Int32 = 0, b: Int32 = 0) {
        self.kind = kind
        self.node = node
        self.a = a
        self.b = b
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
