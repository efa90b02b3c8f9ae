await ServeCommand.main()
