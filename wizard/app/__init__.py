"""What the command line and the wizard share: Recommend, the summary and serving wording for the
terminal and the window, design files (read safely, written atomically), price lists and the
catalog loader."""
