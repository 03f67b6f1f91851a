/// A first-in-first-out queue: an array and the index of its head. The operators that queue
/// values (`observe(on:)`, `zip`, `delay`, `merge(maxConcurrent:)`) share it.
///
/// Removing only moves the head; the delivered front is dropped when the queue empties, and
/// also, so that a queue that never quite empties (a steady backlog) does not keep everything
/// it ever held, when that front is at least `compactionThreshold` long and the larger half.
/// Each waiting value is then moved at most once per value removed: O(1) amortised.
struct FIFOQueue<Value> {
    /// Fewest removed values at the front before the queue drops them while not empty.
    static var compactionThreshold: Int { 32 }

    private var storage: [Value] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }

    /// The oldest value, without removing it.
    var first: Value? { isEmpty ? nil : storage[head] }

    mutating func append(_ value: __owned Value) { storage.append(value) }

    /// Removes and returns the oldest value; the queue must not be empty.
    mutating func removeFirst() -> Value {
        let value = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= Self.compactionThreshold && head * 2 >= storage.count {
            storage.removeSubrange(0..<head)
            head = 0
        }
        return value
    }

    /// Removes and returns the oldest value, or nil when empty.
    mutating func popFirst() -> Value? {
        isEmpty ? nil : removeFirst()
    }
}
