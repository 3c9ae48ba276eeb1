/// Recovers the pattern text of a Swift `Regex`, for `pattern` guides.
///
/// Exists because `Regex` does not expose its source; the standard library's
/// `_literalPattern` reconstructs it for literals, `Regex(String)` and most
/// RegexBuilder regexes. When it cannot, the guide is recorded as
/// unsupported (never silently dropped), so schema users can refuse it.
enum RegexPattern {
    static func guide<Output>(for regex: Regex<Output>) -> GuideKind {
        if let pattern = regex._literalPattern {
            return .pattern(pattern)
        }
        return .unsupportedPattern("a regular expression of type \(Regex<Output>.self) whose pattern cannot be recovered")
    }
}
