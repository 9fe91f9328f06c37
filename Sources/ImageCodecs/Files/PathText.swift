/// Paths taken apart and put together by their text, Unicode scalar by scalar: a name that
/// starts with a combining mark makes one `Character` of the slash before it, which
/// `Character`-wise splitting, `lastIndex(of: "/")` and `hasPrefix("/")` would miss.
public enum PathText {
    /// The names between the slashes of `path`, empty ones left out.
    public static func components(of path: String) -> [String] {
        path.unicodeScalars.split(separator: "/").map { String(String.UnicodeScalarView($0)) }
    }

    /// The folder holding `path`: "." for a bare name, "/" at the root. Trailing slashes are
    /// not a component. (Foundation's `deletingLastPathComponent` traps on a one-character path
    /// on Linux.)
    public static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(String.UnicodeScalarView(trimmed[..<slash]))
    }

    /// The last component of `path`, trailing slashes aside.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(String.UnicodeScalarView(trimmed)) }
        return String(String.UnicodeScalarView(trimmed[trimmed.index(after: slash)...]))
    }

    /// `path` cut after its last slash: the folder part with the slash ("" without one) and
    /// the name after it, which is empty when `path` ends with a slash.
    public static func splitAfterLastSlash(_ path: String) -> (folder: String, name: String) {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/") else { return ("", path) }
        let name = scalars.index(after: slash)
        return (String(String.UnicodeScalarView(scalars[..<name])), String(String.UnicodeScalarView(scalars[name...])))
    }

    /// What follows the last dot of the last component; empty without one, or for a name that
    /// only starts with a dot.
    public static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path).unicodeScalars
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return "" }
        return String(String.UnicodeScalarView(name[name.index(after: dot)...]))
    }

    /// `base/relative`, without doubling a trailing slash.
    public static func join(_ base: String, _ relative: String) -> String {
        endsWithSlash(base) ? base + relative : base + "/" + relative
    }

    /// Whether `path` starts at the root.
    public static func isAbsolute(_ path: String) -> Bool {
        path.unicodeScalars.first == "/"
    }

    /// Whether `path` ends with a slash.
    public static func endsWithSlash(_ path: String) -> Bool {
        path.unicodeScalars.last == "/"
    }

    /// The scalars of `path` without its trailing slashes, keeping a lone "/".
    private static func withoutTrailingSlashes(_ path: String) -> Substring.UnicodeScalarView {
        // A slice, not a copy: building the view by appending took 1.3 % of a batch's time.
        var trimmed = path.unicodeScalars[...]
        while trimmed.last == "/", !trimmed.dropLast().isEmpty { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
