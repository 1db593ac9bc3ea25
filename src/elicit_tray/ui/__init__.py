"""The Qt side: widget registry, dialogs, presenter, tray icon. Only this package builds widgets."""
