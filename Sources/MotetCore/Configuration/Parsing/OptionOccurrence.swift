/// One option found on the command line or in the config file, not yet applied.
struct OptionOccurrence {
    var definition: OptionDefinition
    var value: String?
    var source: OptionSource
}
