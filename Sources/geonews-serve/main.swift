await ServerCommand.main()
