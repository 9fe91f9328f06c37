/// Counts and lists as the terminal lines word them.
enum Wording {
    /// "1 pair", "2 pairs": `plural` defaults to the singular with an "s".
    static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// The first `shown` names, then "and N more" for the rest.
    static func names(_ names: [String], shown: Int = 3) -> String {
        names.prefix(shown).joined(separator: ", ") + (names.count > shown ? " and \(names.count - shown) more" : "")
    }
}
