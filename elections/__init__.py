"""The voting core: candidacies, FOR/DECOY ballots, commitments and tallies over plain ids."""
