"""Everything a reader takes away: the PDF proposal, diagrams, charts and exports."""
