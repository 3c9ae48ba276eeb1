/// The JSON Schema `format`s enforced on strings, each as a pattern in the
/// dialect of ``PatternParser`` (whole-string match).
///
/// Exists so a `format` is enforced by construction, like a pattern: the
/// string automaton can only spell values of that form. Each pattern
/// admits only values that are valid for the format (RFC 3339 dates with
/// the right days per month and leap years, RFC 3986 URIs, RFC 1123 host
/// names of at most 251 characters, …); where the full grammar would need
/// more than a finite automaton or is rarely written (leap seconds, IPv6
/// with an embedded IPv4 part, IP-literal URI hosts, quoted e-mail local
/// parts), the pattern admits a valid subset instead, never more.
package enum StringFormat {
    /// The pattern for `format`, or nil for a format this engine does not
    /// know (JSON Schema makes unknown formats annotations).
    package static func pattern(for format: String) -> String? {
        patterns[format]
    }

    /// The formats with a pattern.
    package static var known: [String] { patterns.keys.sorted() }

    private static let year = #"[0-9]{4}"#
    private static let leapYear = #"([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)"#
    private static let date =
        "(\(year)-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|\(year)-(0[13-9]|1[0-2])-(29|30)|\(year)-(0[13578]|1[02])-31|\(leapYear)-02-29)"
    private static let time = #"([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"#
    private static let label = #"[A-Za-z0-9]([A-Za-z0-9-]{0,60}[A-Za-z0-9])?"#
    private static let hostname = "\(label)(\\.\(label)){0,3}"
    private static let atom = #"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"#
    private static let pchar = #"([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"#
    private static let ncchar = #"([A-Za-z0-9._~!$&'()*+,;=@-]|%[0-9A-Fa-f]{2})"#
    private static let regChar = #"([A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})"#
    private static let userChar = #"([A-Za-z0-9._~!$&'()*+,;=:-]|%[0-9A-Fa-f]{2})"#
    private static let authority = "(\(userChar)*@)?\(regChar)*(:[0-9]*)?"
    private static let queryAndFragment = "(\\?(\(pchar)|[/?])*)?(#(\(pchar)|[/?])*)?"
    private static let uri =
        "[A-Za-z][A-Za-z0-9+.-]*:(//\(authority)(/\(pchar)*)*|/(\(pchar)+(/\(pchar)*)*)?|\(pchar)+(/\(pchar)*)*)?\(queryAndFragment)"
    private static let relativeReference =
        "(//\(authority)(/\(pchar)*)*|/(\(pchar)+(/\(pchar)*)*)?|\(ncchar)+(/\(pchar)*)*)?\(queryAndFragment)"
    private static let hex4 = "[0-9A-Fa-f]{1,4}"
    private static let ipv6 = [
        "(\(hex4):){7}\(hex4)",
        "(\(hex4):){1,7}:",
        "(\(hex4):){1,6}:\(hex4)",
        "(\(hex4):){1,5}(:\(hex4)){1,2}",
        "(\(hex4):){1,4}(:\(hex4)){1,3}",
        "(\(hex4):){1,3}(:\(hex4)){1,4}",
        "(\(hex4):){1,2}(:\(hex4)){1,5}",
        "\(hex4):(:\(hex4)){1,6}",
        ":((:\(hex4)){1,7}|:)",
    ].joined(separator: "|")
    private static let octet = #"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"#
    private static let durationTime = #"T([0-9]+H([0-9]+M([0-9]+S)?)?|[0-9]+M([0-9]+S)?|[0-9]+S)"#
    private static let durationDate = #"([0-9]+Y([0-9]+M([0-9]+D)?)?|[0-9]+M([0-9]+D)?|[0-9]+D)"#

    private static let patterns: [String: String] = [
        "date-time": "\(date)[Tt]\(time)",
        "date": date,
        "time": time,
        "duration": "P([0-9]+W|\(durationDate)(\(durationTime))?|\(durationTime))",
        "email": "\(atom){1,32}(\\.\(atom){1,15}){0,2}@\(hostname)",
        "hostname": hostname,
        "ipv4": "(\(octet)\\.){3}\(octet)",
        "ipv6": ipv6,
        "uri": uri,
        "uri-reference": "\(uri)|\(relativeReference)",
        "uuid": "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
    ]
}
