init README.md
