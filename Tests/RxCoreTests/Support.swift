// Tests of the core spine.
