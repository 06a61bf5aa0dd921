import sys

from wizard.base.import_path import drop_working_folder

drop_working_folder()

from wizard.cli import main  # noqa: E402

sys.exit(main())
