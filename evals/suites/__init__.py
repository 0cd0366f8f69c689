"""Every eval suite; importing this package registers them all."""
