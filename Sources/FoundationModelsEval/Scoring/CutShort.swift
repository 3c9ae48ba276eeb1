import FoundationModels

/// A free string of an answer that was left unfinished, and how the eval
/// could tell.
///
/// Exists because a token budget or a word limit that closes a string
/// early leaves an answer that still decodes, with every field present and
/// non-empty: "A: Neil Armstrong was the first person to walk on the", a
/// headline "Maya's", every reason "The". Nothing else in the eval notices
/// that, so such an answer counted as right.
package struct CutString: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable, CaseIterable {
        /// The last word is broken off (``CutShort/endsMidWord(_:input:)``).
        case midWord = "mid-word"
        /// The text stops where a sentence or phrase cannot end
        /// (``CutShort/endsMidSentence(_:isSentence:input:)``).
        case midSentence = "mid-sentence"
        /// A proper, shorter prefix of the same field in the answer the same
        /// request got with no budget (``CutShort/isCutPrefix(_:of:)``).
        case prefix
    }

    /// Where the string is in the answer (`cards[1].answer`).
    package var path: String
    package var kinds: [Kind]
    /// The string as answered.
    package var text: String

    package init(path: String, kinds: [Kind], text: String) {
        self.path = path
        self.kinds = kinds
        self.text = text
    }
}

/// The deterministic rule for "cut short", applied to every free string of
/// an answer: a string field with no choices, constant, pattern or format
/// in the answer's schema — prose the model writes, where a budget or a
/// word limit can stop it anywhere.
///
/// Three checks, each a checkable proxy for a semantic judgement:
///
/// - **Mid-word**: the text ends on a joining character after a letter
///   (`walk-`, `Maya'`); or its last word has no vowel, begins in lower
///   case (`Pb`, `NYC` and `St` are whole), is not a unit and not a word of
///   the input (`th`, `str`); or it is a
///   proper prefix of three letters or more, two letters short or more,
///   of a capitalized word of the input that is not itself in the input
///   (`Armstr` of `Armstrong`; not `Be` of `Beatles`, a word of its own
///   in "Let It Be"); or,
///   against the unbudgeted answer, the text stops between two letters of
///   its word. Misses: a cut that leaves letters that could be a word
///   (`pers`, `walk` of `walking`) when there is no unbudgeted answer to
///   compare with; no dictionary is consulted (the rule is the same on
///   every machine).
/// - **Mid-sentence**: the text ends on a comma, colon, semicolon, an
///   opening bracket or a dash; or on a word no sentence or label ends
///   with (an article, a preposition, a conjunction, a possessive
///   determiner, `is`/`was`…, a possessive `'s` — lowercase after the
///   first word, any case when it is the only one, so `Vitamin A` and
///   `Plan B` are whole but `The` alone is not; a possessive that the
///   input prints is a name, `Casey's`, except in a sentence field); or
///   it ends a sentence inside (`Strong week. Long run`) and not the last
///   one; or the field asks for a sentence (its description says
///   "sentence") and the answer is a single word with no final
///   punctuation (`Maya's`). Misses: a sentence stopped after a word that
///   can end one (`the long run went`); a headline or short answer without
///   a final period is *not* counted as cut, because models write whole
///   ones that way, so a length-based rule would flag them.
/// - **Prefix** (needs the unbudgeted answer: the same item, the same
///   request, no `maximumResponseTokens`): the string, trimmed of spaces
///   and final punctuation, is a proper, shorter prefix of the same field's
///   string, trimmed alike. The unbudgeted answer keeps the engine's word
///   limits (a description's "at most 10 words"): a cut made by a word
///   limit is in both answers and only the other checks see it.
package enum CutShort {
    /// The free strings of `content` under `schema` (its JSON Schema form),
    /// by path, in the answer's order, with whether each field's description
    /// asks for a sentence.
    package static func freeStrings(in content: GeneratedContent, schema: GenerationSchema) -> [(path: String, text: String, isSentence: Bool)] {
        let document = schema.jsonSchema
        var found: [(path: String, text: String, isSentence: Bool)] = []
        func walk(_ content: GeneratedContent, _ node: GeneratedContent?, _ path: String, _ sentence: Bool) {
            let node = node.map { resolve($0, in: document, for: content) }
            let sentence = sentence || (node.flatMap { description(of: $0) }.map { $0.lowercased().contains("sentence") } ?? false)
            switch content.kind {
            case .string(let text):
                if node.map(isFree) ?? true { found.append((path.isEmpty ? "(value)" : path, text, sentence)) }
            case .array(let elements):
                let items = node.flatMap { member($0, "items") }
                for (index, element) in elements.enumerated() { walk(element, items, "\(path)[\(index)]", sentence) }
            case .structure(let properties, let keys):
                let declared = node.flatMap { member($0, "properties") }
                let additional = node.flatMap { member($0, "additionalProperties") }
                for key in keys {
                    guard let value = properties[key] else { continue }
                    let child =
                        declared.flatMap { member($0, key) } ?? additional.flatMap { $0.kind == .bool(false) || $0.kind == .bool(true) ? nil : $0 }
                    // A property's own description decides; the parent's does not carry over.
                    walk(value, child, path.isEmpty ? key : "\(path).\(key)", false)
                }
            default:
                break
            }
        }
        walk(content, document, "", false)
        return found
    }

    /// The free strings of `content` that are cut short. `input` is what
    /// the model was given (instructions and prompt); `unbudgeted` the same
    /// request's answer with no budget, when there is one.
    package static func cuts(in content: GeneratedContent, schema: GenerationSchema, input: String, unbudgeted: GeneratedContent? = nil)
        -> [CutString]
    {
        let references =
            unbudgeted.map { Dictionary(freeStrings(in: $0, schema: schema).map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first }) }
            ?? [:]
        var cuts: [CutString] = []
        for (path, text, sentence) in freeStrings(in: content, schema: schema) {
            var kinds: [CutString.Kind] = []
            let reference = references[path]
            if endsMidWord(text, input: input) || reference.map({ stopsInsideAWord(text, of: $0) }) == true { kinds.append(.midWord) }
            if endsMidSentence(text, isSentence: sentence, input: input) { kinds.append(.midSentence) }
            if let reference, isCutPrefix(text, of: reference) { kinds.append(.prefix) }
            if !kinds.isEmpty { cuts.append(CutString(path: path, kinds: kinds, text: text)) }
        }
        return cuts
    }

    // MARK: The rules

    /// Whether `text`'s last word is broken off (see the type's rule).
    package static func endsMidWord(_ text: String, input: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return false }
        if joiners.contains(last) {
            let body = trimmed.dropLast()
            // A closing quote is not a joiner: an opening one comes before it.
            if last != "-",
                zip(body, body.dropFirst()).contains(where: { ($0.0.isWhitespace) && ["'", "‘", "’"].contains($0.1) }) || body.first == "'"
                    || body.first == "‘"
            {
                return false
            }
            return body.last?.isLetter == true
        }
        guard last.isLetter, let word = finalWord(trimmed) else { return false }
        // Letters glued to digits are a unit or an ordinal (`14th`, `5km`).
        let start = trimmed.index(trimmed.endIndex, offsetBy: -word.count)
        if start > trimmed.startIndex, trimmed[trimmed.index(before: start)].isNumber { return false }
        let lower = word.lowercased()
        let inputWords = Set(Scoring.words(input))
        if inputWords.contains(lower) { return false }
        if word.count >= 2, word.first?.isLowercase == true, !lower.contains(where: vowels.contains), !units.contains(lower) { return true }
        // Two letters are as often a whole word (`Be`, `Go`, `Up`) as the start of a name.
        if word.count >= 3 {
            let names = Set(input.split(whereSeparator: { !$0.isLetter }).filter { $0.first?.isUppercase == true }.map { $0.lowercased() })
            if names.contains(where: { $0.count >= lower.count + 2 && $0.hasPrefix(lower) }) { return true }
        }
        return false
    }

    /// Whether `text` stops where no sentence or label ends (see the type's
    /// rule). `isSentence`: the field's description asks for a sentence.
    package static func endsMidSentence(_ text: String, isSentence: Bool, input: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return false }
        if openEndings.contains(last) { return true }
        if last == "-" || last == "–" || last == "—" {
            // A dash after a space ("strong until -"), not a hyphen in a word.
            return trimmed.dropLast().last?.isWhitespace ?? true
        }
        if endsASentence(trimmed) { return false }
        let words = trimmed.split(whereSeparator: \.isWhitespace)
        if let word = finalWord(trimmed) {
            let alone = words.count == 1
            let candidate = alone ? word.lowercased() : word
            if danglingWords.contains(candidate) { return true }
            if isPossessive(word) {
                // A possessive the input prints is a name (`Casey's`), but
                // not where a sentence was asked for (`Maya's` as a headline).
                if isSentence || !input.lowercased().contains(word.lowercased()) { return true }
            }
        }
        if containsSentenceEnd(trimmed) { return true }
        if isSentence, words.count == 1 { return true }
        return false
    }

    /// Whether `text` (trimmed of spaces and final punctuation) is a proper,
    /// shorter prefix of `reference` (trimmed alike): the budgeted answer
    /// stopped where the unbudgeted one went on.
    package static func isCutPrefix(_ text: String, of reference: String) -> Bool {
        let short = core(text), long = core(reference)
        return !short.isEmpty && short.count < long.count && long.hasPrefix(short)
    }

    /// Whether `text` stops between two letters of a word of `reference`
    /// (`the first pers` of `the first person`).
    static func stopsInsideAWord(_ text: String, of reference: String) -> Bool {
        let short = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = short.last, last.isLetter || last.isNumber,
            short.count < reference.count, reference.hasPrefix(short)
        else { return false }
        let next = reference[reference.index(reference.startIndex, offsetBy: short.count)]
        return next.isLetter || next.isNumber
    }

    // MARK: Pieces

    static let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]
    /// Vowel-less abbreviations a whole answer ends with.
    static let units: Set<String> = ["km", "kg", "cm", "mm", "ml", "hr", "hrs", "mph", "bpm", "lbs", "pts", "vs", "pm", "ft", "sq"]
    /// Characters that join a word to the next: the word goes on after them.
    static let joiners: Set<Character> = ["-", "'", "’"]
    static let openEndings: Set<Character> = [",", ":", ";", "(", "[", "{", "&", "/"]
    static let sentenceEnds: Set<Character> = [".", "!", "?", "…"]
    static let closers: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]

    /// Words no sentence, title or label ends with. Words that can end one
    /// ("that", "her", "so", "this", "have") are left out: the rule would
    /// rather miss a cut than call a whole string cut.
    static let danglingWords: Set<String> = [
        "a", "an", "the",
        "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "over", "under", "about", "after",
        "before", "between", "through", "during", "without", "within", "toward", "towards", "across", "against",
        "along", "among", "around", "behind", "beyond", "upon", "via", "per", "than",
        "and", "or", "but", "nor", "because", "although", "though", "while", "whereas", "if", "unless", "until",
        "whether", "whose",
        "my", "your", "his", "its", "our", "their", "every",
        "is", "are", "was", "were", "will", "would", "should", "could", "can", "must",
    ]

    /// The trailing run of letters and inner apostrophes (`Maya's`).
    static func finalWord(_ text: String) -> String? {
        var word = ""
        for character in text.reversed() {
            if character.isLetter || ((character == "'" || character == "’") && !word.isEmpty) {
                word.insert(character, at: word.startIndex)
            } else {
                break
            }
        }
        while let first = word.first, first == "'" || first == "’" { word.removeFirst() }
        return word.isEmpty ? nil : word
    }

    static func isPossessive(_ word: String) -> Bool {
        let lower = word.lowercased()
        return (lower.hasSuffix("'s") || lower.hasSuffix("’s")) && lower.count > 2
    }

    /// Whether the text ends with a sentence's end, closing quotes and
    /// brackets after it allowed (`"Done."`, `(see the log).`).
    static func endsASentence(_ text: String) -> Bool {
        var rest = Substring(text)
        while let last = rest.last, closers.contains(last) { rest = rest.dropLast() }
        return rest.last.map(sentenceEnds.contains) ?? false
    }

    /// Whether a sentence ends inside the text: `.`, `!` or `?` after a word
    /// of two letters or more, then a space and a capital (`Mr. Smith` and
    /// `e.g. Shell` are not sentence ends; `Long run done. Rest` is).
    static func containsSentenceEnd(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count >= 4 else { return false }
        for index in 1..<(characters.count - 2) where sentenceEnds.contains(characters[index]) {
            guard characters[index + 1] == " ", characters[index + 2].isUppercase else { continue }
            var start = index
            while start > 0, characters[start - 1].isLetter { start -= 1 }
            let word = String(characters[start..<index])
            if word.count >= 2, !abbreviations.contains(word.lowercased()) { return true }
        }
        return false
    }

    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "vs", "eg", "ie", "etc", "no", "jr", "sr", "approx", "min", "km", "hr", "hrs",
    ]

    /// The text as prefixes compare it: spaces and final punctuation off.
    static func core(_ text: String) -> String {
        var result = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        while let last = result.last, sentenceEnds.contains(last) || closers.contains(last) || openEndings.contains(last) || last.isWhitespace {
            result = result.dropLast()
        }
        return String(result)
    }

    // MARK: The schema's JSON form

    private static func member(_ node: GeneratedContent, _ key: String) -> GeneratedContent? {
        guard case .structure(let properties, _) = node.kind else { return nil }
        return properties[key]
    }

    private static func description(of node: GeneratedContent) -> String? {
        guard case .string(let text)? = member(node, "description")?.kind else { return nil }
        return text
    }

    /// The node itself, or what its `$ref` names, or the alternative of an
    /// `anyOf` whose type fits `content` (a nullable property).
    private static func resolve(_ node: GeneratedContent, in document: GeneratedContent, for content: GeneratedContent) -> GeneratedContent {
        var node = node
        for _ in 0..<8 {
            if case .string(let reference)? = member(node, "$ref")?.kind, reference.hasPrefix("#/$defs/"),
                let target = member(document, "$defs").flatMap({ member($0, String(reference.dropFirst("#/$defs/".count))) })
            {
                // The reference's own description (the property's) wins over the definition's.
                node = description(of: node).map { merged(target, description: $0) } ?? target
                continue
            }
            if case .array(let alternatives)? = member(node, "anyOf")?.kind {
                let fitting = alternatives.first { alternative in
                    guard case .string(let type)? = member(alternative, "type")?.kind else { return false }
                    return type == typeName(of: content)
                }
                if let fitting {
                    node = description(of: node).map { merged(fitting, description: $0) } ?? fitting
                    continue
                }
            }
            break
        }
        return node
    }

    private static func merged(_ node: GeneratedContent, description: String) -> GeneratedContent {
        guard case .structure(var properties, var keys) = node.kind else { return node }
        if properties["description"] == nil { keys.insert("description", at: 0) }
        properties["description"] = GeneratedContent(kind: .string(description))
        return GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys))
    }

    private static func typeName(of content: GeneratedContent) -> String {
        switch content.kind {
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .array: "array"
        case .structure: "object"
        case .null: "null"
        }
    }

    /// A string node the model fills freely: no choices, constant, pattern
    /// or format.
    private static func isFree(_ node: GeneratedContent) -> Bool {
        !["enum", "const", "pattern", "format", "allOf"].contains { member(node, $0) != nil }
    }
}
