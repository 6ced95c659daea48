extension Layout {
    /// The operation contracts and the sample requests of every plan.
    func contracts(into code: inout CodeWriter) {
        let access = options.accessLevel.modifier
        code.line()
        ContractWriter(access: access, name: support.contracts, document: document).write(plans, into: &code)
        var byName: [String: Declaration] = [:]
        for declaration in declarations { byName[declaration.name] = declaration }
        let writer = SampleRequestWriter(
            access: access, name: support.sampleRequests, declarations: byName, multipartFile: support.multipartFile)
        code.line()
        writer.write(plans.filter { SampleWriter.response($0) != nil }, into: &code)
    }
}
