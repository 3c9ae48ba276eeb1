/// Bounds on what goes into a prompt: text from outside the app (an OCR
/// scan, a pasted note, a user's record titles) is cut to a length and, when
/// untrusted, to a set of characters, before it is put in front of a model.
///
/// Exists because a prompt's size is a budget — the context holds a few
/// thousand tokens, prompt and answer together — and a prompt built from
/// user data grows with the data unless every input is capped where the
/// prompt is built. Text from outside also carries what the model should
/// never see: control characters, markup, invisible Unicode that steers
/// or confuses it. The functions are pure, so prompt builders that use
/// them are too, and are tested without a model.
public enum PromptInput {
    /// `text` with its whitespace runs collapsed to single spaces (newlines
    /// kept when `keepsLines`), cut to at most `maximumCharacters`
    /// characters at a word boundary when one is near, with "…" when cut.
    public static func capped(_ text: String, to maximumCharacters: Int, keepsLines: Bool = false) -> String {
        let normalized = collapsingWhitespace(text, keepsLines: keepsLines)
        guard maximumCharacters > 0 else { return "" }
        guard normalized.count > maximumCharacters else { return normalized }
        let cut = normalized.prefix(maximumCharacters - 1)
        // The cut falls between words: keep them all.
        if normalized[cut.endIndex].isWhitespace { return String(cut) + "…" }
        // Back up to the last space if it is not too far: no half words.
        if let space = cut.lastIndex(where: { $0 == " " || $0 == "\n" }),
            cut.distance(from: space, to: cut.endIndex) <= 20, space > cut.startIndex
        {
            return String(cut[..<space]) + "…"
        }
        return String(cut) + "…"
    }

    /// The first `maximumItems` of `items`, each rendered by `line`, and a
    /// last line saying how many were left out.
    public static func cappedList<Item>(
        _ items: some Collection<Item>,
        maximumItems: Int,
        line: (Item) -> String
    ) -> [String] {
        var lines = items.prefix(max(0, maximumItems)).map(line)
        let omitted = items.count - lines.count
        if omitted > 0 { lines.append("(and \(omitted) more)") }
        return lines
    }

    /// Untrusted text reduced to the characters `allowed` accepts (others
    /// become spaces), its whitespace collapsed (lines kept), then capped
    /// to `maximumCharacters`.
    public static func sanitized(
        _ text: String,
        maximumCharacters: Int,
        allowed: (Character) -> Bool = PromptInput.isPlainText
    ) -> String {
        let filtered = String(text.map { allowed($0) || $0 == "\n" ? $0 : " " })
        return capped(filtered, to: maximumCharacters, keepsLines: true)
    }

    /// Letters and digits of any script, spaces, and the punctuation of
    /// ordinary prose, prices and dates: `. , : ; - / ( ) # % & ' " ! ? + * = @ € $ £ ¥`.
    /// Everything else — control and format characters (zero-width and
    /// bidirectional marks), markup (`< > { } [ ] \` `` ` `` `|` `_` `~` `^`),
    /// emoji and symbols — is not.
    public static func isPlainText(_ character: Character) -> Bool {
        if character == " " { return true }
        if character.isLetter || character.isNumber { return character.unicodeScalars.allSatisfy { !$0.properties.isDefaultIgnorableCodePoint } }
        return plainPunctuation.contains(character)
    }

    private static let plainPunctuation: Set<Character> = [
        ".", ",", ":", ";", "-", "/", "(", ")", "#", "%", "&", "'", "\"", "!", "?", "+", "*", "=", "@", "€", "$", "£", "¥",
    ]

    private static func collapsingWhitespace(_ text: String, keepsLines: Bool) -> String {
        var result = ""
        var pendingSpace = false
        var pendingNewline = false
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" {
                if keepsLines { pendingNewline = true } else { pendingSpace = true }
            } else if character.isWhitespace {
                pendingSpace = true
            } else {
                if !result.isEmpty {
                    if pendingNewline { result.append("\n") } else if pendingSpace { result.append(" ") }
                }
                pendingSpace = false
                pendingNewline = false
                result.append(character)
            }
        }
        return result
    }
}
