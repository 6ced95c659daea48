/// Turns a recording into a ``CallPath``: symbolizes every address, attributes each function to
/// its file, and decides each library call's side of the transport seam from its callers.
///
/// The side needs the caller of each call. Each event carries the return addresses above the
/// function entered (read off the frame pointers); its parent is the first of them inside this
/// executable, and each thread keeps a stack of the calls still open so the parent's side is known.
/// A library call is on the transport's side when it is in `Transports/`, or when a
/// transport-side caller called it and it is not a callback. A callback is a closure, or anything
/// reached through a compiler-generated thunk (a stored closure, a protocol witness), whose
/// nearest caller outside thunks and `Support/` is in a transport file: the transport's completion,
/// its progress closure, a body sink. Calls into `Support/` are always the caller's own side.
struct PathBuilder {
    let image: ExecutableImage
    let symbolizer: Symbolizer

    private struct Frame {
        let start: UInt
        let side: Side
        let place: Place
        /// The place of the nearest frame, this one included, that is neither compiler-generated
        /// nor in `Support/`: whose code it runs for.
        let owner: Place

        init(start: UInt, side: Side, place: Place, parent: Frame?) {
            self.start = start
            self.side = side
            self.place = place
            let isTransparent = place.kind == .generated || place.folder == "Support"
            owner = isTransparent ? parent?.owner ?? place : place
        }
    }

    /// The frame of the call that called `event`'s function, with `stack` popped down to it.
    ///
    /// When the nearest return address is in this executable, that function is the parent: the
    /// innermost open call of it, or, if it was entered before the recording started (a transport's
    /// event loop), a frame judged by its own file. When it is outside (the standard library's
    /// `withUnsafeMutablePointers`, `map`, libcurl calling a callback) the frame pointers above it
    /// may skip frames, so a later return address only proves an ancestor is still open: the
    /// parent is then taken to be the innermost open call. With no return address in this
    /// executable at all (a job a queue or the concurrency runtime runs), the call is a root.
    private func parent(of event: RawEvent, on stack: inout [Frame], symbol: (UInt) -> Symbol?) -> Frame? {
        let callers = event.callers.map { symbol($0) }
        if let direct = callers.first ?? nil {
            while let top = stack.last, top.start != direct.start { stack.removeLast() }
            if let top = stack.last { return top }
            let place = Place(file: direct.file)
            return Frame(
                start: direct.start, side: place.isTransportFile ? .transport : .above, place: place, parent: nil)
        }
        let open = Set(stack.map(\.start))
        if callers.dropFirst().contains(where: { $0.map { open.contains($0.start) } ?? false }) {
            return stack.last
        }
        stack.removeAll()
        return nil
    }

    /// Whether a mangled name is an async function's continuation after an `await` or another
    /// suspension point (`TQ<n>_`, `TY<n>_`), which the simplified demangled name does not show.
    static func isResumption(_ mangledName: String) -> Bool {
        guard mangledName.hasSuffix("_") else { return false }
        let body = mangledName.dropLast().reversed().drop(while: \.isNumber)
        return body.starts(with: ["Q", "T"]) || body.starts(with: ["Y", "T"])
    }

    func build(_ recording: Recording) throws -> CallPath {
        var addresses = Set<UInt>()
        for event in recording.events where event.marker == 0 {
            if let address = image.fileAddress(ofReturnAddress: event.pc) { addresses.insert(address) }
            for caller in event.callers {
                if let address = image.fileAddress(ofReturnAddress: caller) { addresses.insert(address) }
            }
        }
        let symbols = try symbolizer.symbolize(Array(addresses).sorted())
        let names = try symbolizer.demangle(Array(Set(symbols.values.map(\.mangledName))).sorted())

        func symbol(_ address: UInt) -> Symbol? {
            image.fileAddress(ofReturnAddress: address).flatMap { symbols[$0] }
        }

        var stacks: [UInt32: [Frame]] = [:]
        // What is open on each thread by frame address (every entry recorded, symbolized or not):
        // an entry closes everything at or below its own frame address (a callee's is lower).
        var open: [UInt32: [(sequence: Int, frame: UInt)]] = [:]
        var calls: [Call] = []
        var entries: [CallPath.Entry] = []
        var generated = 0
        var outside = 0
        var unknown = 0
        var afterValue = false
        for (sequence, event) in recording.events.enumerated() {
            if event.marker != 0 {
                if event.marker == Marker.valueReturned.rawValue { afterValue = true }
                continue
            }
            var openHere = open[event.thread] ?? []
            while let top = openHere.last, top.frame <= event.frame { openHere.removeLast() }
            let openFrames = openHere.reversed().map(\.sequence)
            openHere.append((sequence, event.frame))
            open[event.thread] = openHere
            entries.append(CallPath.Entry(sequence: sequence, thread: event.thread, openFrames: openFrames))
            guard let entered = symbol(event.pc) else {
                unknown += 1
                continue
            }
            let place = Place(file: entered.file)
            let parentFrame = parent(of: event, on: &stacks[event.thread, default: []], symbol: symbol)
            var stack = stacks[event.thread] ?? []

            let function = names[entered.mangledName] ?? entered.mangledName
            let side: Side
            switch place.kind {
            case .library where place.isTransportFile:
                side = .transport
            case .library:
                if let parentFrame, parentFrame.side == .transport {
                    let isCallback =
                        place.folder != "Support" && parentFrame.owner.isTransportFile
                        && (parentFrame.place.kind == .generated || function.contains("closure #"))
                    side = isCallback ? .above : .transport
                } else {
                    side = .above
                }
            case .generated, .outside:
                side = parentFrame?.side ?? .above
            }
            stack.append(Frame(start: entered.start, side: side, place: place, parent: parentFrame))
            stacks[event.thread] = stack

            switch place.kind {
            case .library:
                calls.append(
                    Call(
                        sequence: sequence, thread: event.thread, function: function, place: place, side: side,
                        afterValue: afterValue, caller: parentFrame?.owner,
                        isResumption: Self.isResumption(entered.mangledName)))
            case .generated: generated += 1
            case .outside: outside += 1
            }
        }
        return CallPath(
            calls: calls, entries: entries, generatedEntries: generated, outsideEntries: outside,
            unknownEntries: unknown, threadNames: recording.threadNames, dropped: recording.dropped)
    }
}
