extension Array {
    /// An array of `count` elements that `fill` writes in place, as
    /// `Array(unsafeUninitializedCapacity:initializingWith:)` makes one, except that a count of
    /// zero gives the empty array: `fill` then sees an empty buffer with no base address.
    ///
    /// The standard library's initializer, asked for no capacity, stores the result's count
    /// into the one empty-array storage that every empty array in the process shares. Two
    /// threads doing that at once is a data race (a benign one, but ThreadSanitizer reports
    /// it, and `scripts/sanitize` fails on any report).
    package init(
        filling count: Int,
        _ fill: (_ buffer: inout UnsafeMutableBufferPointer<Element>, _ initializedCount: inout Int) throws -> Void
    ) rethrows {
        guard count > 0 else {
            var buffer = UnsafeMutableBufferPointer<Element>(start: nil, count: 0)
            var initializedCount = 0
            try fill(&buffer, &initializedCount)
            self = []
            return
        }
        try self.init(unsafeUninitializedCapacity: count, initializingWith: fill)
    }
}
